package org.rdmasim.report;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A report folder written as a whole or not at all, and the rules for what rdmasim may replace.
 *
 * <p>Files go into a hidden staging folder beside the target, which replaces the target by a rename
 * once every file is written; an interrupted or failed run leaves the previous report as it was.
 *
 * <p>Ownership: the folder's manifest ({@link #MANIFEST}) lists each file rdmasim wrote with its
 * checksum ({@link #checksum}). A later write deletes or replaces only files listed there whose checksum still matches; any
 * other entry (a user's notes, a folder of their analysis, a report file they edited) is the user's:
 * without {@code --force} the write is refused naming it, with {@code --force} it is kept beside the new
 * report, except a report file they edited, which the new report would write again: that is refused
 * either way. An output that is not a folder (a file, a FIFO, a device), that holds one of the run's inputs,
 * or that is a dangling symbolic link is always refused; a symbolic link to a folder is followed.
 */
public final class ReportFolder {
    /** The manifest; its first line also marks the folder as rdmasim output. */
    public static final String MANIFEST = ".rdmasim-report";
    private static final String FIRST_LINE = "written by rdmasim; safe to replace";
    /** A listed file: its checksum ({@link #checksum}), or the SHA-256 an earlier release recorded, two spaces, its name. */
    private static final Pattern ENTRY = Pattern.compile("([0-9a-f]{16}|[0-9a-f]{64})  (.+)");
    /**
     * The manifest's line naming the scenario file the report was made from, relative to the folder (so it
     * holds when the folder and the scenarios move together, as a clone does). Only the manifest has it:
     * summary.json is the same bytes wherever it is written.
     */
    private static final String MADE_FROM = "made from ";
    /** What a report written before manifests existed could hold: rdmasim's own kinds of file. */
    private static final Pattern LEGACY_REPORT_FILE = Pattern.compile(".+\\.(png|svg|csv|json|html)");
    private static final int NAMED = 5;

    private final Path target;
    private final Path staging;
    private final Set<String> unmarkedOwn;
    /** Checksums of staged files, taken by the threads that wrote them ({@link #hashWritten}), by name. */
    private final Map<String, String> hashed = new java.util.concurrent.ConcurrentHashMap<>();
    private boolean published;
    /** The scenario file the report is made from, absolute; null when not read from a file. */
    private Path madeFrom;

    private ReportFolder(Path target, Path staging, Set<String> unmarkedOwn) {
        this.target = target;
        this.staging = staging;
        this.unmarkedOwn = unmarkedOwn;
    }

    /** An output that rdmasim refuses to write (exit 2: the user chose the place). */
    public static final class UnsafeOutputException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        public UnsafeOutputException(String message) {
            super(message);
        }
    }

    /**
     * Checks, before any simulation, that a report may be written at {@code given}, and returns where
     * it will go (a symbolic link followed to its folder).
     *
     * @param inputs      files the run reads (the scenario and what it names): the output may not be one
     *                    of them nor a folder holding one
     * @param force       the user allows entries rdmasim did not write to stay beside the report
     * @param unmarkedOwn names this command wrote before reports carried a manifest (an unmarked folder
     *                    holding every one of these is an earlier report of this command; one holding only
     *                    some, such as a user's own index.html, is not)
     */
    public static Path claim(Path given, Collection<Path> inputs, boolean force, Set<String> unmarkedOwn)
            throws IOException {
        return claim(given, inputs, force, unmarkedOwn, Remedies.OUT_AND_FORCE);
    }

    /**
     * The options a command offers to resolve a refused folder, so that a refusal advises only what the
     * command has: the option naming the folder, and whether it has {@code --force}.
     */
    public record Remedies(String folderOption, boolean hasForce) {
        /** {@code run}, {@code bench}, {@code size}, {@code validate}: {@code --out DIR} and {@code --force}. */
        public static final Remedies OUT_AND_FORCE = new Remedies("--out", true);
    }

    /** As {@link #claim(Path, Collection, boolean, Set)}, a refusal advising only {@code remedies}. */
    public static Path claim(Path given, Collection<Path> inputs, boolean force, Set<String> unmarkedOwn,
            Remedies remedies) throws IOException {
        Path target = followed(given);
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            BasicFileAttributes a = Files.readAttributes(target, BasicFileAttributes.class);
            if (!a.isDirectory()) {
                throw new UnsafeOutputException("will not write a report at " + given + ": it is "
                        + (a.isRegularFile() ? "a file" : "a FIFO, socket or device")
                        + ", and a report is a folder; choose a new or earlier report folder"
                        + (force ? " (--force replaces only an earlier report)" : ""));
            }
        }
        for (Path input : inputs) {
            Path in;
            try {
                in = input.toRealPath();
            } catch (IOException e) {
                continue; // not a file on disk: nothing to overwrite
            }
            if (in.startsWith(target)) {
                throw new UnsafeOutputException("will not write a report at " + given + ": "
                        + (in.equals(target) ? "it is" : "it holds") + " the input " + input
                        + "; choose a folder outside the scenario's");
            }
        }
        if (Files.isDirectory(target)) {
            List<String> foreign = foreignEntries(target, unmarkedOwn);
            List<String> edited = edited(target, foreign);
            if (!edited.isEmpty()) {
                // --force keeps the user's files beside the report, so it cannot write one of these names:
                // refused now, with or without it, rather than after the simulation (publish would refuse)
                String them = edited.size() == 1 ? "it" : "them";
                throw new UnsafeOutputException(given + " holds " + named(edited) + " that rdmasim wrote and that "
                        + "changed since; rdmasim never replaces a report file you edited" + (remedies.hasForce()
                                ? " (--force included)" : "") + ": move " + them + " out of the folder, or choose "
                        + "another " + remedies.folderOption());
            }
            if (!foreign.isEmpty() && !force) {
                throw new UnsafeOutputException(given + " holds " + named(foreign)
                        + " that rdmasim did not write; choose another "
                        + remedies.folderOption() + ", " + (remedies.hasForce()
                                ? "or pass --force to write the report beside them (they are kept)"
                                : "or move " + (foreign.size() == 1 ? "it" : "them") + " out of the folder"));
            }
        }
        checkWritable(target);
        return target;
    }

    /** {@link #claim(Path, Collection, boolean, Set)} for a command whose reports always carried a manifest. */
    public static Path claim(Path given, Collection<Path> inputs, boolean force) throws IOException {
        return claim(given, inputs, force, Set.of());
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
        } catch (java.nio.file.FileAlreadyExistsException e) {
            // a part of the path is a file: the folder cannot be made under it
            Path file = fileInTheWay(parent);
            throw new IOException("cannot write a report in " + parent + ": " + (file != null ? file : e.getFile())
                    + " is a file, not a folder");
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IOException("cannot write a report in " + parent + ": the folder cannot be created there");
        } catch (FileSystemException e) {
            // ENOTDIR ("Not a directory") when the file is further up than the parent: FILE/a/b
            Path file = fileInTheWay(parent);
            throw new IOException("cannot write a report in " + parent + ": " + (file != null
                    ? file + " is a file, not a folder"
                    : e.getReason() == null ? "the file system refused (" + e.getClass().getSimpleName() + ")"
                            : e.getReason()));
        }
        if (Files.exists(target) && !Files.isWritable(target)) {
            throw new IOException("cannot replace " + target + ": it is not writable");
        }
    }

    /** The nearest existing part of {@code path} (itself or a folder above) when it is not a folder, else null. */
    private static Path fileInTheWay(Path path) {
        for (Path p = path.toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p)) {
                return Files.isDirectory(p) ? null : p;
            }
        }
        return null;
    }

    /** A fresh staging folder for {@code target} (a stale one from an earlier interrupted run is removed). */
    public static ReportFolder stage(Path given) throws IOException {
        return stage(given, Set.of());
    }

    /** As {@link #stage(Path)}, for a command that wrote {@code unmarkedOwn} before reports had a manifest. */
    public static ReportFolder stage(Path given, Set<String> unmarkedOwn) throws IOException {
        Path target = followed(given);
        if (target.getFileName() == null) {
            throw new IOException("cannot write a report at " + target + ": choose a folder below it");
        }
        Path parent = parentOf(target);
        Files.createDirectories(parent);
        Path staging = parent.resolve("." + target.getFileName() + ".rdmasim-partial");
        deleteTree(staging);
        Files.createDirectory(staging);
        return new ReportFolder(target, staging, unmarkedOwn);
    }

    public Path staging() {
        return staging;
    }

    /** Records in the manifest that the report is made from {@code scenarioFile} (null: not a file). */
    public void madeFrom(Path scenarioFile) {
        this.madeFrom = scenarioFile == null ? null : scenarioFile.toAbsolutePath().normalize();
    }

    /**
     * The scenario file {@code dir}'s report was made from, as its manifest records it (resolved against
     * {@code dir}), or empty when the manifest does not say (a report of an earlier rdmasim, or of a
     * scenario not read from a file).
     */
    public static java.util.Optional<Path> recordedSource(Path dir) throws IOException {
        Path manifest = dir.resolve(MANIFEST);
        if (!Files.isRegularFile(manifest, LinkOption.NOFOLLOW_LINKS)) {
            return java.util.Optional.empty();
        }
        for (String line : Files.readAllLines(manifest, StandardCharsets.UTF_8)) {
            if (line.startsWith(MADE_FROM) && line.length() > MADE_FROM.length()) {
                try {
                    return java.util.Optional.of(dir.toAbsolutePath().resolve(line.substring(MADE_FROM.length())).normalize());
                } catch (java.nio.file.InvalidPathException e) {
                    return java.util.Optional.empty();
                }
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * The scenario file {@code dir}'s manifest names, when that file is still there and is not {@code mine}: a
     * copy of the scenario (another file, its {@code name:} the same) would replace the other file's output.
     * Empty when the manifest names none, names {@code mine}, or names a file that is gone (moved or renamed).
     */
    public static java.util.Optional<Path> anotherSource(Path dir, Path mine) throws IOException {
        java.util.Optional<Path> live = liveSource(dir);
        return live.isPresent() && !sameFile(live.get(), mine) ? live : java.util.Optional.empty();
    }

    /** The scenario file {@code dir}'s manifest names, when that file is still there. */
    public static java.util.Optional<Path> liveSource(Path dir) throws IOException {
        return recordedSource(dir).filter(Files::isRegularFile);
    }

    /** Whether {@code recorded}, an existing file, is {@code mine}. */
    public static boolean sameFile(Path recorded, Path mine) throws IOException {
        return mine != null && Files.isRegularFile(mine) && Files.isSameFile(recorded, mine);
    }

    /** {@code madeFrom} relative to {@code dir}, with '/' between names; null when none or not printable. */
    private static String relativeSource(Path dir, Path madeFrom) {
        if (madeFrom == null) {
            return null;
        }
        Path rel = dir.toAbsolutePath().normalize().relativize(madeFrom);
        StringBuilder b = new StringBuilder();
        for (Path part : rel) {
            b.append(b.length() == 0 ? "" : "/").append(part);
        }
        String text = b.toString();
        return text.isEmpty() || text.chars().anyMatch(c -> c < 0x20) ? null : text;
    }

    /**
     * Takes the checksum of the staged file {@code name} now, for the manifest, so that it is not read and
     * hashed again when the report is published. For a writer that has written the file for the last
     * time: on the thread that wrote it, the hashing runs beside the rest of the report.
     */
    void hashWritten(String name) throws IOException {
        hashed.put(name, checksum(staging.resolve(name)));
    }

    /**
     * Puts the staged report in place with its manifest. A folder holding only rdmasim's files (or
     * nothing) is replaced as a whole; beside entries of the user's the files are moved in one by one,
     * replacing only files of the earlier report, so the user's stay. A staged file whose name an entry
     * of the user's holds is refused, nothing moved.
     */
    public void publish() throws IOException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedIOException("interrupted before the report was put in place");
        }
        List<String> newFiles = writeManifest(staging, hashed, relativeSource(target, madeFrom));
        boolean exists = Files.exists(target, LinkOption.NOFOLLOW_LINKS);
        if (exists && !Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new UnsafeOutputException("will not replace " + target + ": it is not a folder");
        }
        List<String> foreign = exists ? foreignEntries(target, unmarkedOwn) : List.of();
        // Renaming the folder a shell stands in would leave that shell in a deleted folder.
        boolean holdsWorkingFolder = Path.of("").toAbsolutePath().normalize().startsWith(target);
        if (exists && (!foreign.isEmpty() || holdsWorkingFolder)) {
            List<String> clash = foreign.stream().filter(newFiles::contains).toList();
            if (!clash.isEmpty()) {
                throw new UnsafeOutputException("will not replace " + named(clash) + " in " + target
                        + ": rdmasim did not write " + (clash.size() == 1 ? "it" : "them")
                        + " (or it changed since); move " + (clash.size() == 1 ? "it" : "them") + " or choose another --out");
            }
            for (String old : ownedEntries(target, unmarkedOwn)) {
                if (!newFiles.contains(old)) {
                    Files.deleteIfExists(target.resolve(old));
                }
            }
            for (String name : newFiles) {
                if (!name.equals(MANIFEST)) {
                    Files.move(staging.resolve(name), target.resolve(name), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Files.move(staging.resolve(MANIFEST), target.resolve(MANIFEST), StandardCopyOption.REPLACE_EXISTING);
            Files.delete(staging);
        } else {
            Path previous = parentOf(target).resolve("." + target.getFileName() + ".rdmasim-previous");
            deleteTree(previous);
            if (exists) {
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

    /**
     * Writes {@code dir}'s manifest for the files in it that rdmasim wrote ({@code written}), for a command
     * that writes its folder in place as it goes; returns nothing, the manifest is the record.
     */
    public static void recordWritten(Path dir, Collection<String> written) throws IOException {
        recordWritten(dir, written, null);
    }

    /** As above, naming in the manifest the scenario file the folder's output is made from (null: none). */
    public static void recordWritten(Path dir, Collection<String> written, Path madeFrom) throws IOException {
        Map<String, String> hashes = new TreeMap<>();
        for (String name : written) {
            Path f = dir.resolve(name);
            if (Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                hashes.put(name, checksum(f));
            }
        }
        Files.writeString(dir.resolve(MANIFEST), manifestText(hashes,
                relativeSource(dir, madeFrom == null ? null : madeFrom.toAbsolutePath().normalize())), StandardCharsets.UTF_8);
    }

    /**
     * Adds {@code written} (files rdmasim just wrote into {@code dir}) to the manifest beside what it
     * already owns there, for commands that write a folder piece by piece (a study's job files, its
     * table and page); creates the manifest when there is none.
     */
    public static void addWritten(Path dir, Collection<String> written) throws IOException {
        addWritten(dir, written, recordedSource(dir).orElse(null));
    }

    /** As above, naming {@code madeFrom} in the manifest as the file the folder's output is made from. */
    public static void addWritten(Path dir, Collection<String> written, Path madeFrom) throws IOException {
        Set<String> owned = new TreeSet<>(ownedEntries(dir, Set.of()));
        owned.remove(MANIFEST);
        owned.addAll(written);
        recordWritten(dir, owned, madeFrom);
    }

    /** Deletes {@code dir/name} only if rdmasim wrote it and it is unchanged since. */
    public static void deleteIfOwned(Path dir, String name) throws IOException {
        if (ownedEntries(dir, Set.of()).contains(name)) {
            Files.deleteIfExists(dir.resolve(name));
        }
    }

    /** The entries of {@code dir} a write may replace: listed in its manifest with a matching hash. */
    static Set<String> ownedEntries(Path dir, Set<String> unmarkedOwn) throws IOException {
        Set<String> owned = new TreeSet<>();
        Path manifest = dir.resolve(MANIFEST);
        List<String> entries = entries(dir);
        if (!Files.isRegularFile(manifest, LinkOption.NOFOLLOW_LINKS)) {
            // an earlier report of the command wrote every one of these names: a folder holding only some of them
            // (a user's own index.html, and nothing else) is not one, and its file was replaced without a word
            boolean earlierReport = !unmarkedOwn.isEmpty() && unmarkedOwn.stream()
                    .allMatch(e -> Files.isRegularFile(dir.resolve(e), LinkOption.NOFOLLOW_LINKS));
            for (String e : entries) {
                if (earlierReport && unmarkedOwn.contains(e)) {
                    owned.add(e);
                }
            }
            return owned;
        }
        owned.add(MANIFEST);
        List<String> lines = Files.readAllLines(manifest, StandardCharsets.UTF_8);
        boolean listed = false;
        for (String line : lines) {
            Matcher m = ENTRY.matcher(line);
            if (!m.matches()) {
                continue;
            }
            listed = true;
            String name = m.group(2);
            Path f = dir.resolve(name).normalize();
            if (!f.getParent().equals(dir.normalize()) || !Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            if (unchangedSince(f, m.group(1))) {
                owned.add(name);
            }
        }
        for (String e : entries) {
            // a folder inside that is itself an rdmasim folder left as written (a study's shard) is rdmasim's
            Path sub = dir.resolve(e);
            if (Files.isDirectory(sub, LinkOption.NOFOLLOW_LINKS)
                    && Files.isRegularFile(sub.resolve(MANIFEST), LinkOption.NOFOLLOW_LINKS)
                    && foreignEntries(sub, Set.of()).isEmpty()) {
                owned.add(e);
            }
        }
        if (!listed && !lines.isEmpty() && lines.get(0).equals(FIRST_LINE)) {
            // A report from before manifests: only rdmasim's kinds of file are taken as its own.
            for (String e : entries) {
                if (LEGACY_REPORT_FILE.matcher(e).matches() && Files.isRegularFile(dir.resolve(e), LinkOption.NOFOLLOW_LINKS)) {
                    owned.add(e);
                }
            }
        }
        return owned;
    }

    /**
     * Of {@code foreign}, the entries of {@code dir} that are not rdmasim's, the files its manifest lists
     * (so changed since rdmasim wrote them: a report file the user edited). A later report writes the same
     * names, which no option lets it replace.
     */
    static List<String> edited(Path dir, List<String> foreign) throws IOException {
        Path manifest = dir.resolve(MANIFEST);
        if (foreign.isEmpty() || !Files.isRegularFile(manifest, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        Set<String> listed = new java.util.HashSet<>();
        for (String line : Files.readAllLines(manifest, StandardCharsets.UTF_8)) {
            Matcher m = ENTRY.matcher(line);
            if (m.matches()) {
                listed.add(m.group(2));
            }
        }
        return foreign.stream().filter(e -> listed.contains(e)
                && Files.isRegularFile(dir.resolve(e), LinkOption.NOFOLLOW_LINKS)).toList();
    }

    /** Entries of {@code dir} that rdmasim did not write or that changed since, sorted. */
    public static List<String> foreignEntries(Path dir, Set<String> unmarkedOwn) throws IOException {
        Set<String> owned = ownedEntries(dir, unmarkedOwn);
        return entries(dir).stream().filter(e -> !owned.contains(e)).toList();
    }

    /** @param known hashes already taken of some of the files, by name */
    private static List<String> writeManifest(Path dir, Map<String, String> known, String source) throws IOException {
        List<String> names = new ArrayList<>();
        for (String name : entries(dir)) {
            if (!name.equals(MANIFEST)) {
                Path f = dir.resolve(name);
                if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                    throw new IOException("report staging holds a non-file " + f);
                }
                names.add(name);
            }
        }
        // Files not hashed yet are hashed now, on both cores (the common pool plus this thread).
        Map<String, String> hashes = new TreeMap<>();
        try {
            names.parallelStream().map(name -> {
                try {
                    String hash = known.get(name);
                    return Map.entry(name, hash != null ? hash : checksum(dir.resolve(name)));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList().forEach(e -> hashes.put(e.getKey(), e.getValue()));
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
        Files.writeString(dir.resolve(MANIFEST), manifestText(hashes, source), StandardCharsets.UTF_8);
        List<String> written = new ArrayList<>(hashes.keySet());
        written.add(MANIFEST);
        return written;
    }

    private static String manifestText(Map<String, String> hashes) {
        return manifestText(hashes, null);
    }

    /** @param source the scenario file, relative to the folder, or null when not made from one */
    private static String manifestText(Map<String, String> hashes, String source) {
        StringBuilder b = new StringBuilder(FIRST_LINE).append('\n');
        b.append("# The files rdmasim wrote here, with a checksum of each (CRC-32C and CRC-32). A later run deletes or\n");
        b.append("# replaces only these, and only while the checksum still matches; anything else here is left alone.\n");
        if (source != null) {
            b.append(MADE_FROM).append(source).append('\n');
        }
        hashes.forEach((name, hash) -> b.append(hash).append("  ").append(name).append('\n'));
        return b.toString();
    }

    /**
     * A file's checksum for the manifest: its CRC-32C and its CRC-32, 16 hex digits. The manifest only has to tell
     * whether a file changed since rdmasim wrote it (an edit of the user's), not stand against a forger: two CRCs of
     * different polynomials miss a random change once in ~2^64. Both run at memory speed under the JVM's quick
     * compiler (C1 intrinsics, which the launcher's C1-only JVM keeps), where SHA-256 ran at ~46 MB/s: a 12.4 MB
     * resources.csv took 0.27 s against 0.0015 s, and a 65,536-receiver fan-out's run (153 MB of reports) 12.5-12.9 s
     * of process CPU against 11.2-11.6 s (`bench --scenario`, two runs each, 2026-11-29).
     */
    public static String checksum(Path f) throws IOException {
        java.util.zip.CRC32C c = new java.util.zip.CRC32C();
        java.util.zip.CRC32 d = new java.util.zip.CRC32();
        try (var in = Files.newInputStream(f, LinkOption.NOFOLLOW_LINKS)) {
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                c.update(buf, 0, n);
                d.update(buf, 0, n);
            }
        }
        return String.format(java.util.Locale.ROOT, "%08x%08x", c.getValue(), d.getValue());
    }

    /** Whether {@code f} is as the manifest recorded it: by its checksum, or by SHA-256 in a folder of an earlier release. */
    private static boolean unchangedSince(Path f, String recorded) throws IOException {
        return recorded.equals(recorded.length() == 64 ? sha256(f) : checksum(f));
    }

    private static String sha256(Path f) throws IOException {
        MessageDigest d;
        try {
            d = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
        try (var in = Files.newInputStream(f, LinkOption.NOFOLLOW_LINKS)) {
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                d.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(d.digest());
    }

    private static List<String> entries(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** The names for a message: one alone, or how many and the first few. */
    public static String named(List<String> names) {
        String shown = String.join(", ", names.subList(0, Math.min(NAMED, names.size())));
        return (names.size() == 1 ? "" : names.size() + " entries: ") + shown
                + (names.size() > NAMED ? " and " + (names.size() - NAMED) + " more" : "");
    }

    /**
     * The absolute place a report goes: a symbolic link (at the end or on the way) is followed to the
     * folder it names; a link to nothing is refused, so it is never replaced by a folder.
     */
    static Path followed(Path given) throws IOException {
        Path abs = given.toAbsolutePath().normalize();
        if (Files.isSymbolicLink(abs) && !Files.exists(abs)) {
            throw new UnsafeOutputException("will not write a report at " + given
                    + ": it is a symbolic link to " + Files.readSymbolicLink(abs) + ", which does not exist");
        }
        // The longest existing prefix resolved to its real path, the rest appended.
        Path existing = abs;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return abs;
        }
        try {
            return existing.toRealPath().resolve(existing.relativize(abs)).normalize();
        } catch (NoSuchFileException e) {
            return abs;
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to);
        }
    }

    private static Path parentOf(Path target) {
        Path abs = target.toAbsolutePath().normalize();
        return abs.getParent() == null ? abs : abs.getParent();
    }

    /**
     * Removes {@code dir}, a scratch folder the caller created for a report nobody keeps (a benchmark's
     * report written only to time its writing), with everything in it.
     */
    public static void removeScratch(Path dir) throws IOException {
        deleteTree(dir);
    }

    /** Deletes a folder this class created (staging or the replaced previous report). */
    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
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
