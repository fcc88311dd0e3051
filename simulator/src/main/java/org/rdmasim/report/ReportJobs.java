package org.rdmasim.report;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The files of one report (its tables, charts and pages), written by jobs on two threads where the
 * machine has two cores, else one after the other as they are added. A job writes its own files and, when the
 * report is staged in a {@link ReportFolder}, takes their checksum for the manifest on the same thread
 * ({@link ReportFolder#hashWritten}) while the file is likely still in the page cache. Jobs start in the order they are added (the largest first keeps the two threads
 * even); every file is the same whatever thread writes it.
 */
final class ReportJobs implements AutoCloseable {
    /** Writes one or more files of the report. */
    interface Job {
        void write() throws IOException;
    }

    /** The folder the files are staged in, to hash them; null when nothing is hashed. */
    private final ReportFolder folder;
    /** Null where the machine has one core: jobs then run as they are added. */
    private final ExecutorService pool;
    private final List<Future<Void>> started = new ArrayList<>();

    ReportJobs(ReportFolder folder) {
        this.folder = folder;
        int threads = Math.min(2, Runtime.getRuntime().availableProcessors());
        this.pool = threads < 2 ? null : Executors.newFixedThreadPool(threads, task -> {
            Thread t = new Thread(task, "rdmasim-report");
            t.setDaemon(true);
            return t;
        });
    }

    /** Runs {@code job}, then hashes {@code files} (names in the report folder), which the job writes. */
    void add(Job job, List<String> files) throws IOException {
        if (pool == null) {
            job.write();
            hash(files);
            return;
        }
        started.add(pool.submit(() -> {
            job.write();
            hash(files);
            return null;
        }));
    }

    private void hash(List<String> files) throws IOException {
        if (folder != null) {
            for (String name : files) {
                folder.hashWritten(name);
            }
        }
    }

    /**
     * Waits for every job, failed or not, so that no job still writes into the report's folder once this
     * returns or throws; then the first that failed, in the order they were added, fails the report.
     */
    void awaitAll() throws IOException {
        Throwable first = null;
        boolean interrupted = false;
        for (Future<Void> f : started) {
            while (true) {
                try {
                    f.get();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    if (first == null) {
                        first = e.getCause();
                    }
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
            if (first == null) {
                throw new InterruptedIOException("interrupted while the report was written");
            }
        }
        if (first instanceof IOException io) {
            throw io;
        }
        if (first instanceof RuntimeException re) {
            throw re;
        }
        if (first instanceof Error err) {
            throw err;
        }
        if (first != null) {
            throw new IOException(first);
        }
    }

    /**
     * Lets the jobs already started finish (a failed report's other files are not left half written, nor
     * written after the failure is reported); a job still running after ten minutes is interrupted.
     */
    @Override
    public void close() {
        if (pool == null) {
            return;
        }
        pool.shutdown();
        try {
            if (!pool.awaitTermination(10, java.util.concurrent.TimeUnit.MINUTES)) {
                pool.shutdownNow();
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
