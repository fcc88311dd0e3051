package org.rdmasim.report;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A report folder written as a whole or not at all: files go into a hidden staging folder beside the
 * target, which replaces the target by a rename once every file is written. An interrupted or failed
 * run leaves the previous report as it was.
 */
public final class ReportFolder {
    private final Path target;
    private final Path staging;
    private boolean published;

    private ReportFolder(Path target, Path staging) {
        this.target = target;
        this.staging = staging;
    }

    /** Checks, before any simulation, that a report can be written beside {@code target}. */
    public static void checkWritable(Path target) throws IOException {
        Path parent = parentOf(target);
        try {
            Files.createDirectories(parent);
            Path probe = Files.createTempDirectory(parent, ".rdmasim-probe-");
            Files.delete(probe);
        } catch (AccessDeniedException e) {
            throw new IOException("cannot write a report in " + parent + ": permission denied");
        } catch (FileSystemException e) {
            throw new IOException("cannot write a report in " + parent + ": "
                    + (e.getReason() == null ? e.getClass().getSimpleName() : e.getReason()));
        }
        if (Files.exists(target) && !Files.isWritable(target)) {
            throw new IOException("cannot replace " + target + ": it is not writable");
        }
    }

    /** A fresh staging folder for {@code target} (a stale one from an earlier interrupted run is removed). */
    public static ReportFolder stage(Path given) throws IOException {
        // Absolute and normalised, so "--out ." names the current folder and not a folder called ".".
        Path target = given.toAbsolutePath().normalize();
        if (target.getFileName() == null) {
            throw new IOException("cannot write a report at " + target + ": choose a folder below it");
        }
        Path parent = parentOf(target);
        Files.createDirectories(parent);
        Path staging = parent.resolve("." + target.getFileName() + ".rdmasim-partial");
        deleteTree(staging);
        Files.createDirectory(staging);
        return new ReportFolder(target, staging);
    }

    public Path staging() {
        return staging;
    }

    /**
     * Puts the staged report in place. An rdmasim report (or nothing) at the target is replaced as a
     * folder; a folder of the user's that {@code --force} allowed receives the files one by one, so
     * their own files stay.
     */
    public void publish() throws IOException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedIOException("interrupted before the report was put in place");
        }
        boolean foreign = Files.isDirectory(target) && !Files.exists(target.resolve(ReportWriter.MARKER)) && !isEmpty(target);
        // Renaming the folder a shell stands in would leave that shell in a deleted folder.
        boolean holdsWorkingFolder = Path.of("").toAbsolutePath().normalize().startsWith(target);
        if (foreign || holdsWorkingFolder && Files.isDirectory(target)) {
            try (Stream<Path> files = Files.list(staging)) {
                for (Path f : files.toList()) {
                    Files.move(f, target.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Files.delete(staging);
        } else {
            Path previous = parentOf(target).resolve("." + target.getFileName() + ".rdmasim-previous");
            deleteTree(previous);
            if (Files.exists(target)) {
                move(target, previous);
            }
            move(staging, target);
            deleteTree(previous);
        }
        published = true;
    }

    /** Removes the staging folder when the report was not published. */
    public void discard() throws IOException {
        if (!published) {
            deleteTree(staging);
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to);
        }
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        }
    }

    private static Path parentOf(Path target) {
        Path abs = target.toAbsolutePath().normalize();
        return abs.getParent() == null ? abs : abs.getParent();
    }

    /** Deletes a folder this class created (staging or the replaced previous report). */
    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        List<Path> all;
        try (Stream<Path> s = Files.walk(dir)) {
            all = s.sorted(Comparator.reverseOrder()).toList();
        }
        for (Path p : all) {
            Files.deleteIfExists(p);
        }
    }
}
