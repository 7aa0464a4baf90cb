package org.picothreads.maven;

import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.logging.Log;

/** A Maven log that keeps each message as "LEVEL message", for tests to read. */
final class RecordingLog implements Log {
    private final List<String> lines = new ArrayList<>();

    List<String> lines() {
        return lines;
    }

    private void add(String level, CharSequence content, Throwable error) {
        lines.add(level + " " + (content == null ? "" : content) + (error == null ? "" : " " + error));
    }

    @Override
    public boolean isDebugEnabled() {
        return false;
    }

    @Override
    public void debug(CharSequence content) {
        add("DEBUG", content, null);
    }

    @Override
    public void debug(CharSequence content, Throwable error) {
        add("DEBUG", content, error);
    }

    @Override
    public void debug(Throwable error) {
        add("DEBUG", null, error);
    }

    @Override
    public boolean isInfoEnabled() {
        return true;
    }

    @Override
    public void info(CharSequence content) {
        add("INFO", content, null);
    }

    @Override
    public void info(CharSequence content, Throwable error) {
        add("INFO", content, error);
    }

    @Override
    public void info(Throwable error) {
        add("INFO", null, error);
    }

    @Override
    public boolean isWarnEnabled() {
        return true;
    }

    @Override
    public void warn(CharSequence content) {
        add("WARN", content, null);
    }

    @Override
    public void warn(CharSequence content, Throwable error) {
        add("WARN", content, error);
    }

    @Override
    public void warn(Throwable error) {
        add("WARN", null, error);
    }

    @Override
    public boolean isErrorEnabled() {
        return true;
    }

    @Override
    public void error(CharSequence content) {
        add("ERROR", content, null);
    }

    @Override
    public void error(CharSequence content, Throwable error) {
        add("ERROR", content, error);
    }

    @Override
    public void error(Throwable error) {
        add("ERROR", null, error);
    }
}
