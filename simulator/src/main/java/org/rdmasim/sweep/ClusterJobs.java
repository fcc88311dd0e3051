package org.rdmasim.sweep;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The job files that run a study's shards on a cluster and merge them, written into the study's output
 * folder (shard {@code I} writes {@code OUT/shard-I/}, the merge writes {@code OUT/}):
 * <ul>
 *   <li>Slurm: a job array, task {@code SLURM_ARRAY_TASK_ID} (0-based) running shard
 *       {@code SLURM_ARRAY_TASK_ID + 1} of {@code SLURM_ARRAY_TASK_COUNT}, and a merge job submitted with
 *       {@code --dependency=afterok:<array>} so it starts only when every task ended with exit 0
 *       (sbatch(1), https://slurm.schedmd.com/sbatch.html, "--array" and "--dependency");
 *   <li>Kubernetes: an Indexed Job ({@code completionMode: Indexed}, one pod per completion index,
 *       which the pod reads from {@code JOB_COMPLETION_INDEX}; https://kubernetes.io/docs/concepts/workloads/controllers/job/,
 *       "Completion mode") and a merge Job applied once the first is complete.
 * </ul>
 * A task whose folder already holds a table resumes it, so a requeued or retried task keeps its rows.
 */
public final class ClusterJobs {
    private final Study study;
    private final int shards;
    private final int cpus;
    private final Path out;
    private final boolean allowOutside;

    public ClusterJobs(Study study, int shards, int cpus, Path out, boolean allowOutside) {
        if (shards < 1) {
            throw new StudyInputException("at least one shard, got " + shards);
        }
        this.study = study;
        this.shards = shards;
        this.cpus = cpus;
        this.out = out;
        this.allowOutside = allowOutside;
    }

    /** Writes {@code sweep.sbatch}, {@code merge.sbatch} and {@code submit-slurm.sh}; returns them. */
    public List<Path> writeSlurm(String launcher, String memory, String time, String partition) throws IOException {
        unitGiven(memory, "Slurm reads a bare --mem as megabytes", "G");
        checkWord("--memory", memory, "[0-9]+[KMGT]?");
        checkWord("--time", time, "([0-9]+-)?[0-9]{1,2}(:[0-9]{2}){0,2}");
        if (partition != null) {
            checkWord("--partition", partition, "[A-Za-z0-9_.,-]+");
        }
        Path dir = out.toAbsolutePath().normalize();
        Path here = Path.of("").toAbsolutePath();
        String studyPath = study.file().toAbsolutePath().normalize().toString();
        String name = "rdmasim-" + study.name();
        StringBuilder a = new StringBuilder("#!/bin/bash\n");
        a.append("# Study ").append(study.name()).append(" (fingerprint ").append(study.fingerprint()).append("), ")
                .append(shards).append(" shard(s): array task i runs shard i+1 of SLURM_ARRAY_TASK_COUNT.\n");
        a.append("#SBATCH --job-name=").append(name).append('\n');
        a.append("#SBATCH --array=0-").append(shards - 1).append('\n');
        a.append("#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=").append(cpus).append('\n');
        a.append("#SBATCH --mem=").append(memory).append('\n');
        a.append("#SBATCH --time=").append(time).append('\n');
        if (partition != null) {
            a.append("#SBATCH --partition=").append(partition).append('\n');
        }
        a.append("#SBATCH --chdir=").append(here).append('\n');
        a.append("#SBATCH --output=").append(dir).append("/slurm-%A_%a.out\n");
        a.append("set -euo pipefail\n");
        a.append(": \"${SLURM_ARRAY_TASK_ID:?submit this script with sbatch: it is a job array}\"\n");
        a.append("count=\"${SLURM_ARRAY_TASK_COUNT:-").append(shards).append("}\"\n");
        a.append("shard=$((SLURM_ARRAY_TASK_ID + 1))\n");
        a.append("dir=").append(sh(dir.toString())).append("/shard-$shard\n");
        a.append("if [ -f \"$dir/").append(ResultTable.JSON).append("\" ]; then where=(--resume \"$dir\"); else where=(--out \"$dir\"); fi\n");
        a.append("exec ").append(launcher).append(" sweep ").append(sh(studyPath)).append(" --shard \"$shard/$count\"")
                .append(" --threads \"${SLURM_CPUS_PER_TASK:-").append(cpus).append("}\" \"${where[@]}\"")
                .append(allowOutside ? " --allow-outside" : "").append('\n');
        StringBuilder m = new StringBuilder("#!/bin/bash\n");
        m.append("# Merges the shards of study ").append(study.name()).append(" once every array task ended with exit 0.\n");
        m.append("#SBATCH --job-name=").append(name).append("-merge\n");
        m.append("#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n#SBATCH --mem=").append(memory).append('\n');
        m.append("#SBATCH --time=").append(time).append('\n');
        if (partition != null) {
            m.append("#SBATCH --partition=").append(partition).append('\n');
        }
        m.append("#SBATCH --chdir=").append(here).append('\n');
        m.append("#SBATCH --output=").append(dir).append("/slurm-merge-%j.out\n");
        m.append("set -euo pipefail\n");
        m.append("exec ").append(launcher).append(" merge");
        for (int i = 1; i <= shards; i++) {
            m.append(' ').append(sh(dir + "/shard-" + i));
        }
        m.append(" --out ").append(sh(dir.toString())).append('\n');
        String submit = "#!/bin/sh\n# Submits the job array, then the merge job to start after every task succeeded.\n"
                + "set -eu\nhere=$(cd \"$(dirname \"$0\")\" && pwd)\n"
                + "array=$(sbatch --parsable \"$here/sweep.sbatch\")\narray=${array%%;*}\n"
                + "merge=$(sbatch --parsable --dependency=afterok:\"$array\" \"$here/merge.sbatch\")\n"
                + "echo \"array job $array, merge job ${merge%%;*}\"\n";
        Files.createDirectories(dir);
        Path array = write(dir.resolve("sweep.sbatch"), a.toString());
        Path merge = write(dir.resolve("merge.sbatch"), m.toString());
        Path sub = write(dir.resolve("submit-slurm.sh"), submit);
        org.rdmasim.report.ReportFolder.addWritten(dir, List.of("sweep.sbatch", "merge.sbatch", "submit-slurm.sh"));
        return List.of(array, merge, sub);
    }

    /**
     * Writes {@code sweep-job.yaml} (the Indexed Job), {@code merge-job.yaml} and {@code submit-k8s.sh}.
     * Pods work in {@code mount}, where the claim holding this folder is mounted, so the study and the
     * output folder must be given relative to this folder.
     */
    public List<Path> writeKubernetes(String launcher, String image, String claim, String mount, String memory,
            int parallelism) throws IOException {
        checkWord("--image", image, "[A-Za-z0-9._/:@-]+");
        checkWord("--volume-claim", claim, "[a-z0-9]([-a-z0-9.]*[a-z0-9])?");
        checkWord("--mount", mount, "/[A-Za-z0-9._/-]*");
        unitGiven(memory, "Kubernetes reads a bare memory quantity as bytes", "Gi");
        checkWord("--memory", memory, "[0-9]+(Ki|Mi|Gi|Ti|K|M|G|T)?");
        if (parallelism < 1 || parallelism > shards) {
            throw new StudyInputException("--parallelism must be 1 to the " + shards + " shard(s), got " + parallelism);
        }
        String studyPath = inside("the study", study.file());
        String outPath = inside("--out", out);
        String name = ("rdmasim-" + study.name()).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-");
        name = name.substring(0, Math.min(name.length(), 50)).replaceAll("-+$", "");
        String run = "exec " + launcher + " sweep " + sh(studyPath) + " --shard \"$((JOB_COMPLETION_INDEX + 1))/" + shards
                + "\" --threads " + cpus + " --out " + sh(outPath) + "/shard-$((JOB_COMPLETION_INDEX + 1))"
                + (allowOutside ? " --allow-outside" : "");
        // a retried pod resumes its folder instead of starting over
        String shard = "dir=" + sh(outPath) + "/shard-$((JOB_COMPLETION_INDEX + 1)); if [ -f \"$dir/" + ResultTable.JSON
                + "\" ]; then exec " + launcher + " sweep " + sh(studyPath) + " --shard \"$((JOB_COMPLETION_INDEX + 1))/"
                + shards + "\" --threads " + cpus + " --resume \"$dir\"" + (allowOutside ? " --allow-outside" : "")
                + "; fi; " + run;
        StringBuilder merge = new StringBuilder("exec " + launcher + " merge");
        for (int i = 1; i <= shards; i++) {
            merge.append(' ').append(sh(outPath + "/shard-" + i));
        }
        merge.append(" --out ").append(sh(outPath));
        String job = job(name, true, parallelism, image, claim, mount, memory, cpus, shard);
        String mergeJob = job(name + "-merge", false, 1, image, claim, mount, memory, 1, merge.toString());
        String submit = "#!/bin/sh\n# Runs the shards as an Indexed Job, waits for it to complete, then runs the merge Job.\n"
                + "set -eu\nhere=$(cd \"$(dirname \"$0\")\" && pwd)\n"
                + "kubectl apply -f \"$here/sweep-job.yaml\"\n"
                + "kubectl wait --for=condition=complete --timeout=-1s job/" + name + "\n"
                + "kubectl apply -f \"$here/merge-job.yaml\"\n"
                + "kubectl wait --for=condition=complete --timeout=-1s job/" + name + "-merge\n";
        Path dir = out.toAbsolutePath().normalize();
        Files.createDirectories(dir);
        List<Path> written = List.of(write(dir.resolve("sweep-job.yaml"), job), write(dir.resolve("merge-job.yaml"),
                mergeJob), write(dir.resolve("submit-k8s.sh"), submit));
        org.rdmasim.report.ReportFolder.addWritten(dir, written.stream().map(f -> f.getFileName().toString()).toList());
        return written;
    }

    private String job(String name, boolean indexed, int parallelism, String image, String claim, String mount,
            String memory, int cpu, String command) {
        StringBuilder y = new StringBuilder();
        y.append("# rdmasim study ").append(study.name()).append(" (fingerprint ").append(study.fingerprint()).append(")\n");
        y.append("apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: ").append(name).append('\n');
        y.append("  labels:\n    app.kubernetes.io/name: rdmasim\n    rdmasim/study: ").append(q(study.name())).append('\n');
        y.append("spec:\n");
        if (indexed) {
            y.append("  completionMode: Indexed\n");
            y.append("  completions: ").append(shards).append('\n');
            y.append("  parallelism: ").append(parallelism).append('\n');
            y.append("  backoffLimit: ").append(2 * shards).append('\n');
        } else {
            y.append("  completions: 1\n  parallelism: 1\n  backoffLimit: 2\n");
        }
        y.append("  template:\n    metadata:\n      labels:\n        app.kubernetes.io/name: rdmasim\n");
        y.append("    spec:\n      restartPolicy: Never\n      containers:\n");
        y.append("        - name: ").append(indexed ? "shard" : "merge").append('\n');
        y.append("          image: ").append(q(image)).append('\n');
        y.append("          workingDir: ").append(q(mount)).append('\n');
        y.append("          command: [\"/bin/sh\", \"-c\"]\n");
        y.append("          args:\n            - ").append(q(command)).append('\n');
        y.append("          resources:\n            requests: {cpu: \"").append(cpu).append("\", memory: ").append(q(memory))
                .append("}\n            limits: {cpu: \"").append(cpu).append("\", memory: ").append(q(memory)).append("}\n");
        y.append("          volumeMounts:\n            - {name: work, mountPath: ").append(q(mount)).append("}\n");
        y.append("      volumes:\n        - name: work\n          persistentVolumeClaim: {claimName: ").append(q(claim))
                .append("}\n");
        return y.toString();
    }

    /** A path relative to the working folder, which the pods see at the mount. */
    private static String inside(String what, Path p) {
        Path here = Path.of("").toAbsolutePath();
        Path abs = p.toAbsolutePath().normalize();
        if (!abs.startsWith(here)) {
            throw new StudyInputException("--k8s: " + what + " (" + p + ") must be inside this folder, which the "
                    + "pods see at --mount");
        }
        String r = here.relativize(abs).toString();
        return r.isEmpty() ? "." : r;
    }

    /**
     * A memory size without its unit is refused: rdmasim reads a bare size as bytes, Slurm as megabytes, Kubernetes as
     * bytes, so '--memory 4' meant as 4 GB asked for 4 MB of Slurm or 4 bytes of Kubernetes.
     */
    private static void unitGiven(String memory, String why, String unit) {
        if (memory != null && memory.matches("[0-9]+")) {
            throw new StudyInputException("--memory " + memory + ": give its unit, e.g. --memory " + memory + unit + " ("
                    + why + ")");
        }
    }

    private static void checkWord(String option, String value, String pattern) {
        if (value == null || !value.matches(pattern)) {
            throw new StudyInputException(option + ": '" + value + "' is not of the form " + pattern);
        }
    }

    private static Path write(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8);
        file.toFile().setExecutable(file.getFileName().toString().endsWith(".sh")
                || file.getFileName().toString().endsWith(".sbatch"));
        return file;
    }

    /** A shell word in single quotes. */
    static String sh(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** A YAML double-quoted string. */
    static String q(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
