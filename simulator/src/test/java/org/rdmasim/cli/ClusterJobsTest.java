package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The job files of {@code sweep --slurm} and {@code sweep --k8s}: their structure, and their commands
 * run as the scheduler would run them (each array task or pod with its index variables set, in its own
 * process, then the merge), giving the local run's table byte for byte. The real Slurm run is
 * tools/slurm/e2e.sh (CI).
 */
class ClusterJobsTest {
    /** Inside the working folder: the Kubernetes pods see study and output relative to it. */
    private static Path work;
    private static Path study;
    private static Path local;
    private static Path launcher;

    @BeforeAll
    static void studyAndLocalRun() throws IOException {
        Path target = Path.of("target");
        Files.createDirectories(target);
        work = Files.createTempDirectory(target, "cluster-jobs-");
        study = StudyFixture.write(work, StudyFixture.STUDY);
        local = work.resolve("local");
        var r = CliTestSupport.run("sweep", study.toString(), "--out", local.toString());
        assertEquals(0, r.code(), r.err());
        // rdmasim as a job's process starts it: a JVM of its own on this build's classes
        launcher = work.resolve("rdmasim-test");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Files.writeString(launcher, "#!/bin/sh\nexec '" + java + "' -Djava.awt.headless=true -cp '"
                + System.getProperty("java.class.path") + "' org.rdmasim.cli.Main \"$@\"\n");
        assertTrue(launcher.toFile().setExecutable(true));
    }

    @AfterAll
    static void cleanUp() throws IOException {
        try (var s = Files.walk(work)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void theIndexedJobHasWhatKubernetesNeedsAndItsPodsMergeIntoTheLocalRun() throws Exception {
        Path out = work.resolve("k8s");
        var r = CliTestSupport.run("sweep", study.toString(), "--k8s", "--shards", "3", "--cpus", "1", "--image",
                "registry.example/rdmasim:1", "--volume-claim", "rdmasim-work", "--memory", "2Gi", "--parallelism", "2",
                "--launcher", launcher.toAbsolutePath().toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        Map<String, Object> job = yaml(out.resolve("sweep-job.yaml"));
        assertEquals("batch/v1", job.get("apiVersion"));
        assertEquals("Job", job.get("kind"));
        String name = (String) map(job, "metadata").get("name");
        assertTrue(name.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?") && name.length() <= 63, name);
        Map<String, Object> spec = map(job, "spec");
        assertEquals("Indexed", spec.get("completionMode"));
        assertEquals(3, spec.get("completions"));
        assertEquals(2, spec.get("parallelism"));
        Map<String, Object> pod = map(map(spec, "template"), "spec");
        assertEquals("Never", pod.get("restartPolicy"));
        Map<String, Object> c = list(pod, "containers").get(0);
        assertEquals("registry.example/rdmasim:1", c.get("image"));
        assertEquals("/work", c.get("workingDir"));
        assertEquals(List.of("/bin/sh", "-c"), c.get("command"));
        Map<String, Object> res = map(c, "resources");
        assertEquals(Map.of("cpu", "1", "memory", "2Gi"), map(res, "requests"));
        assertEquals(Map.of("cpu", "1", "memory", "2Gi"), map(res, "limits"));
        assertEquals("/work", list(c, "volumeMounts").get(0).get("mountPath"));
        Map<String, Object> vol = list(pod, "volumes").get(0);
        assertEquals(list(c, "volumeMounts").get(0).get("name"), vol.get("name"));
        assertEquals("rdmasim-work", map(vol, "persistentVolumeClaim").get("claimName"));
        @SuppressWarnings("unchecked")
        String shardCommand = ((List<String>) c.get("args")).get(0);
        assertTrue(shardCommand.contains("JOB_COMPLETION_INDEX"), shardCommand);

        Map<String, Object> merge = yaml(out.resolve("merge-job.yaml"));
        assertEquals("Job", merge.get("kind"));
        assertFalse(map(merge, "spec").containsKey("completionMode"));
        @SuppressWarnings("unchecked")
        String mergeCommand = ((List<String>) list(map(map(map(merge, "spec"), "template"), "spec"), "containers").get(0)
                .get("args")).get(0);
        String submit = Files.readString(out.resolve("submit-k8s.sh"));
        assertTrue(submit.contains("kubectl wait --for=condition=complete --timeout=-1s job/" + name + "\n"), submit);

        // each pod: the container's command with the index Kubernetes gives it, in the mounted folder
        for (int i = 0; i < 3; i++) {
            assertEquals(0, shell(shardCommand, Map.of("JOB_COMPLETION_INDEX", String.valueOf(i))), "pod " + i);
        }
        assertEquals(0, shell(mergeCommand, Map.of()));
        StudyFixture.assertSameTables(local, out);
    }

    /**
     * Both manifests read into Kubernetes' own batch/v1 Job model (fabric8's, generated from the
     * Kubernetes OpenAPI schema): every field has the type the API gives it (a wrong one fails the
     * conversion), and no field is one the API does not know (the model keeps those aside; none may be).
     */
    @Test
    void bothManifestsAreJobsOfTheKubernetesBatchV1Api() throws Exception {
        Path out = work.resolve("k8s-schema");
        var r = CliTestSupport.run("sweep", study.toString(), "--k8s", "--shards", "3", "--image",
                "registry.example/rdmasim:1", "--volume-claim", "rdmasim-work", "--launcher",
                launcher.toAbsolutePath().toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        for (String file : List.of("sweep-job.yaml", "merge-job.yaml")) {
            var job = mapper.convertValue(yaml(out.resolve(file)), io.fabric8.kubernetes.api.model.batch.v1.Job.class);
            assertEquals("batch/v1", job.getApiVersion(), file);
            List<String> unknown = new java.util.ArrayList<>();
            unknownFields(job, file, unknown, java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()));
            assertEquals(List.of(), unknown, file + ": fields the Kubernetes API does not have");
            assertTrue(job.getSpec().getTemplate().getSpec().getContainers().get(0).getImage().startsWith("registry"));
        }
        // the check sees a field Kubernetes does not have
        Map<String, Object> bad = yaml(out.resolve("sweep-job.yaml"));
        map(bad, "spec").put("completionsMode", "Indexed");
        List<String> unknown = new java.util.ArrayList<>();
        unknownFields(mapper.convertValue(bad, io.fabric8.kubernetes.api.model.batch.v1.Job.class), "bad", unknown,
                java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()));
        assertEquals(List.of("bad.spec: completionsMode"), unknown);
    }

    /** Every field of the model object graph that landed in an 'additional properties' map. */
    private static void unknownFields(Object o, String at, List<String> out, java.util.Set<Object> seen)
            throws Exception {
        if (o == null || !seen.add(o)) {
            return;
        }
        if (o instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) {
                unknownFields(l.get(i), at + "[" + i + "]", out, seen);
            }
            return;
        }
        if (o instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                unknownFields(e.getValue(), at + "." + e.getKey(), out, seen);
            }
            return;
        }
        if (!o.getClass().getName().startsWith("io.fabric8.kubernetes.api.model")) {
            return;
        }
        for (java.lang.reflect.Method g : o.getClass().getMethods()) {
            if (g.getParameterCount() != 0 || !g.getName().startsWith("get") || g.getName().equals("getClass")) {
                continue;
            }
            Object v = g.invoke(o);
            if (g.getName().equals("getAdditionalProperties")) {
                for (Object k : ((Map<?, ?>) v).keySet()) {
                    out.add(at + ": " + k);
                }
            } else {
                String field = Character.toLowerCase(g.getName().charAt(3)) + g.getName().substring(4);
                unknownFields(v, at + "." + field, out, seen);
            }
        }
    }

    @Test
    void theJobArrayReadsSlurmsVariablesAndTheMergeWaitsForItsSuccess() throws Exception {
        Path out = work.resolve("slurm");
        var r = CliTestSupport.run("sweep", study.toString(), "--slurm", "--shards", "4", "--cpus", "1", "--memory", "1G",
                "--time", "00:05:00", "--partition", "short", "--launcher", launcher.toAbsolutePath().toString(), "--out",
                out.toString());
        assertEquals(0, r.code(), r.err());
        String array = Files.readString(out.resolve("sweep.sbatch"));
        for (String line : List.of("#SBATCH --array=0-3", "#SBATCH --cpus-per-task=1", "#SBATCH --mem=1G",
                "#SBATCH --time=00:05:00", "#SBATCH --partition=short")) {
            assertTrue(array.contains(line + "\n"), line + " in\n" + array);
        }
        assertTrue(array.contains("SLURM_ARRAY_TASK_ID") && array.contains("SLURM_ARRAY_TASK_COUNT"), array);
        String submit = Files.readString(out.resolve("submit-slurm.sh"));
        assertTrue(submit.contains("sbatch --parsable --dependency=afterok:\"$array\""), submit);
        // each task as Slurm starts it: the script with its array variables
        for (int i = 0; i < 4; i++) {
            assertEquals(0, run(List.of("bash", out.resolve("sweep.sbatch").toString()),
                    Map.of("SLURM_ARRAY_TASK_ID", String.valueOf(i), "SLURM_ARRAY_TASK_COUNT", "4")), "task " + i);
        }
        // outside a job array the script refuses to guess its shard
        assertEquals(1, run(List.of("bash", out.resolve("sweep.sbatch").toString()), Map.of()));
        assertEquals(0, run(List.of("bash", out.resolve("merge.sbatch").toString()), Map.of()));
        StudyFixture.assertSameTables(local, out);
    }

    @Test
    void k8sNeedsAnImageAClaimAndPathsInsideTheMountedFolder() {
        var noImage = CliTestSupport.run("sweep", study.toString(), "--k8s", "--volume-claim", "w", "--out",
                work.resolve("x").toString());
        assertEquals(2, noImage.code());
        assertTrue(noImage.err().contains("--image"), noImage.err());
        var outside = CliTestSupport.run("sweep", study.toString(), "--k8s", "--image", "i", "--volume-claim", "w", "--out",
                "/tmp/rdmasim-k8s-outside");
        assertEquals(2, outside.code());
        assertTrue(outside.err().contains("must be inside this folder"), outside.err());
    }

    /**
     * A job option where no job of its kind is written would be ignored: --image without --k8s ran the study on this
     * machine, exit 0. Refused (exit 2, nothing written), naming the option and its mode.
     */
    @Test
    void aJobOptionWithoutItsModeIsRefusedNotIgnored() {
        record Case(List<String> args, String says) {
        }
        List<Case> cases = List.of(
                new Case(List.of("--image", "i"), "--image shapes the jobs --k8s writes; without --k8s"),
                new Case(List.of("--cpus", "1"), "--cpus shapes the jobs --slurm or --k8s writes"),
                new Case(List.of("--partition", "short"), "--partition shapes the jobs --slurm writes"),
                new Case(List.of("--slurm", "--parallelism", "2"), "--parallelism is for --k8s, not --slurm"),
                new Case(List.of("--k8s", "--image", "i", "--volume-claim", "w", "--time", "00:05:00"),
                        "--time is for --slurm, not --k8s"),
                // a size without its unit: 4 MB to Slurm, 4 bytes to Kubernetes (it was written into the jobs as is)
                new Case(List.of("--slurm", "--memory", "4"), "--memory 4: give its unit, e.g. --memory 4G (Slurm reads "
                        + "a bare --mem as megabytes)"),
                new Case(List.of("--k8s", "--image", "i", "--volume-claim", "w", "--memory", "4"), "--memory 4: give its "
                        + "unit, e.g. --memory 4Gi (Kubernetes reads a bare memory quantity as bytes)"));
        int n = 0;
        for (Case c : cases) {
            Path out = work.resolve("mode" + n++);
            List<String> args = new java.util.ArrayList<>(List.of("sweep", study.toString(), "--out", out.toString(), "-q"));
            args.addAll(c.args());
            var r = CliTestSupport.run(args.toArray(String[]::new));
            assertEquals(2, r.code(), c + ": " + r.err());
            assertTrue(r.err().contains(c.says()), c + ": " + r.err());
            assertFalse(Files.exists(out), "nothing written for " + c);
        }
    }

    @Test
    void aStoppedSweepKeepsItsFinishedRowsAndResumeCompletesThem() throws Exception {
        Path out = work.resolve("stopped");
        Process p = new ProcessBuilder(launcher.toAbsolutePath().toString(), "sweep", study.toString(), "--threads", "1",
                "--out", out.toString()).redirectErrorStream(true).redirectOutput(work.resolve("stopped.log").toFile()).start();
        Path journal = out.resolve("rows.jsonl");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && p.isAlive()
                && (!Files.exists(journal) || Files.readAllLines(journal).size() < 2)) {
            Thread.sleep(20);
        }
        assertTrue(p.isAlive(), "the sweep ended before it could be stopped: " + Files.readString(work.resolve("stopped.log")));
        p.destroy(); // SIGTERM, as Ctrl-C's SIGINT: the JVM runs its shutdown hooks
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        JsonNode t = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        assertFalse(t.get("complete").asBoolean(), t.toString());
        int kept = t.get("results").size();
        assertTrue(kept >= 2 && kept < 8, "rows kept: " + kept);
        assertTrue(Files.readString(out.resolve("index.html")).contains("INCOMPLETE"));
        var r = CliTestSupport.run("sweep", study.toString(), "--resume", out.toString());
        assertEquals(0, r.code(), r.err());
        StudyFixture.assertSameTables(local, out);
    }

    private static int shell(String command, Map<String, String> env) throws Exception {
        return run(List.of("/bin/sh", "-c", command), env);
    }

    private static int run(List<String> command, Map<String, String> env) throws Exception {
        ProcessBuilder b = new ProcessBuilder(new ArrayList<>(command)).directory(Path.of("").toAbsolutePath().toFile())
                .redirectErrorStream(true);
        b.environment().remove("SLURM_ARRAY_TASK_ID");
        b.environment().remove("JOB_COMPLETION_INDEX");
        b.environment().putAll(env);
        Process p = b.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), command + " did not end");
        if (p.exitValue() != 0) {
            System.out.println(command + " " + env + " exit " + p.exitValue() + ":\n" + output);
        }
        return p.exitValue();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> yaml(Path file) throws IOException {
        return (Map<String, Object>) new Yaml(new SafeConstructor(new LoaderOptions())).load(Files.readString(file));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> m, String key) {
        assertTrue(m.get(key) instanceof Map, key + " is a mapping in " + m);
        return (Map<String, Object>) m.get(key);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Map<String, Object> m, String key) {
        assertTrue(m.get(key) instanceof List, key + " is a list in " + m);
        return (List<Map<String, Object>>) m.get(key);
    }
}
