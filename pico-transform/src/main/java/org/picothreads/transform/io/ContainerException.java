package org.picothreads.transform.io;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * An input or output that cannot be read or written; the message is one line that names the file and, for a
 * jar, the entry.
 */
public final class ContainerException extends Exception {
    private static final long serialVersionUID = 1L;

    public ContainerException(String message) {
        super(message);
    }

    public ContainerException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Wraps a failed file operation as {@code "<action> <file>: <reason>"}, for example "cannot read in.jar: permission denied". */
    public static ContainerException of(String action, Path file, IOException failure) {
        return new ContainerException(action + " " + file + ": " + reason(failure, file), failure);
    }

    /**
     * The reason of a failed file operation in words. The file system exceptions of java.nio carry only the
     * file name as their message, so their kind is named instead, with the file when it is not {@code subject}.
     */
    static String reason(IOException failure, Path subject) {
        if (failure instanceof FileSystemException fileSystemFailure) {
            String file = fileSystemFailure.getFile();
            String kind = failure instanceof NoSuchFileException ? "no such file or directory"
                    : failure instanceof AccessDeniedException ? "permission denied"
                    : failure instanceof FileAlreadyExistsException ? "file already exists"
                    : failure instanceof DirectoryNotEmptyException ? "directory not empty"
                    : failure instanceof NotDirectoryException ? "not a directory"
                    : fileSystemFailure.getReason() != null ? fileSystemFailure.getReason()
                    : failure.getClass().getSimpleName();
            return file == null || file.equals(subject.toString()) ? kind : kind + " (" + file + ")";
        }
        String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getSimpleName() : oneLine(message);
    }

    /** The text with its line breaks turned into spaces, so that an error stays on one line. */
    static String oneLine(String text) {
        return text.replaceAll("\\R+", " ").strip();
    }
}
