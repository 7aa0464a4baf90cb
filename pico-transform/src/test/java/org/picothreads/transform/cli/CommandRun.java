package org.picothreads.transform.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/**
 * One execution of {@link TransformCommand} with its standard output and standard error captured.
 *
 * @param exitCode the status the command returned
 * @param out      what it printed to standard output
 * @param err      what it printed to standard error
 */
record CommandRun(int exitCode, String out, String err) {

    /** Runs the command as {@code main} would, with the given arguments. */
    static CommandRun run(Object... arguments) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] strings = new String[arguments.length];
        for (int i = 0; i < arguments.length; i++) {
            strings[i] = arguments[i].toString();
        }
        int exitCode = TransformCommand.commandLine()
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(strings);
        return new CommandRun(exitCode, out.toString(), err.toString());
    }

    /** The lines printed to standard error. */
    List<String> errorLines() {
        return err.lines().toList();
    }
}
