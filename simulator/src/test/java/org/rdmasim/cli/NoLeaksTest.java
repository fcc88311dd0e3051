package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No leaks: a file that is not what rdmasim expected is described, never quoted; scenario, env and host
 * files are read only inside the scenario's folder (links resolved) unless --allow-outside; variables
 * the model does not read reach the report as NAME=&lt;redacted&gt;.
 */
class NoLeaksTest {
    @TempDir
    Path dir;

    private static final String PASSWD = "root:x:0:0:SECRET-ROOT-LINE:/root:/bin/bash\n"
            + "daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n";

    private Path scenarioLinkedTo(Path target) throws IOException {
        Path folder = Files.createDirectories(dir.resolve("scenarios"));
        Path link = folder.resolve("s.yaml");
        Files.createSymbolicLink(link, target);
        return link;
    }

    private static void assertBadInputWithout(CliTestSupport.Outcome o, String secret) {
        assertEquals(2, o.code(), o.err());
        assertFalse(o.err().contains(secret), o.err());
        assertFalse(o.out().contains(secret), o.out());
        assertFalse(o.err().contains("\tat "), o.err());
    }

    @Test
    void aScenarioSymlinkedToAPasswordFileIsNotReadNorQuoted() throws IOException {
        Path passwd = Files.writeString(Files.createDirectories(dir.resolve("etc")).resolve("passwd"), PASSWD);
        Path link = scenarioLinkedTo(passwd);
        CliTestSupport.Outcome o = CliTestSupport.run("run", link.toString(), "--out", dir.resolve("out").toString());
        assertBadInputWithout(o, "SECRET-ROOT-LINE");
        assertTrue(o.err().contains("symbolic link") && o.err().contains("--allow-outside"), o.err());

        // allowed outside, it is read: a file of one text value is described, not shown
        o = CliTestSupport.run("run", link.toString(), "--allow-outside", "--out", dir.resolve("out").toString());
        assertBadInputWithout(o, "SECRET-ROOT-LINE");
        assertTrue(o.err().contains("a single text value of 91 characters (not shown"), o.err());
        assertFalse(o.err().contains("root:x"), o.err());
    }

    @Test
    void theSystemPasswordFileIsNotQuoted() throws IOException {
        Path etc = Path.of("/etc/passwd");
        assumeTrue(Files.isReadable(etc), "no /etc/passwd here");
        String first = Files.readAllLines(etc).get(0);
        Path link = scenarioLinkedTo(etc);
        assertBadInputWithout(CliTestSupport.run("run", link.toString(), "--out", dir.resolve("o").toString()), first);
        assertBadInputWithout(CliTestSupport.run("run", link.toString(), "--allow-outside", "--out",
                dir.resolve("o").toString()), first.substring(0, Math.min(first.length(), 8)));
    }

    @Test
    void demoOverAFolderHoldingSuchALinkDoesNotQuoteIt() throws IOException {
        Path passwd = Files.writeString(Files.createDirectories(dir.resolve("etc")).resolve("passwd"), PASSWD);
        Path link = scenarioLinkedTo(passwd);
        CliTestSupport.Outcome o = CliTestSupport.run("demo", "--scenarios", link.getParent().toString(), "--reports",
                dir.resolve("reports").toString());
        assertBadInputWithout(o, "SECRET-ROOT-LINE");
    }

    @Test
    void aScenarioThatIsAnEnvFileIsDescribedNotQuoted() throws IOException {
        Path s = Files.writeString(dir.resolve("s.yaml"), "API_TOKEN=hunter2-secret\nUCX_TLS=rc\n");
        CliTestSupport.Outcome o = CliTestSupport.run("run", s.toString(), "--out", dir.resolve("out").toString());
        assertBadInputWithout(o, "hunter2");
        assertTrue(o.err().contains("s.yaml:1:1: (top level): expected a mapping (key: value), got a single text value"),
                o.err());
    }

    @Test
    void compareOnAFileThatIsNotJsonNamesThePlaceNotTheContent() throws IOException {
        Path f = Files.writeString(dir.resolve("summary.json"), PASSWD);
        CliTestSupport.Outcome o = CliTestSupport.run("compare", f.toString(), f.toString());
        assertBadInputWithout(o, "root");
        assertTrue(o.err().contains("summary.json:1:") && o.err().contains("not valid JSON"), o.err());
    }

    @Test
    void anEnvFileLinkedOutsideTheScenarioFolderIsRefused() throws IOException {
        Path secret = Files.writeString(Files.createDirectories(dir.resolve("elsewhere")).resolve("env"),
                "UCX_TLS=rc\nAPI_TOKEN=hunter2-secret\n");
        Path folder = Files.createDirectories(dir.resolve("scenarios"));
        Files.createSymbolicLink(folder.resolve("env.sh"), secret);
        Path s = Files.writeString(folder.resolve("s.yaml"), ScenarioErrorsTest.GOOD + "transport: {envFile: env.sh}\n");
        CliTestSupport.Outcome o = CliTestSupport.run("run", s.toString(), "--out", dir.resolve("out").toString());
        assertBadInputWithout(o, "hunter2");
        assertTrue(o.err().contains("links outside the scenario's folder"), o.err());
    }

    private static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: receiver-0
            spec:
              containers:
                - name: worker
                  env:
                    - name: UCX_MAX_RMA_RAILS
                      value: "2"
                    - name: HF_TOKEN
                      value: "hf_SECRETSECRET"
                    - name: NCCL_DEBUG
                      value: INFO
            """;

    @Test
    void aTokenInAnEnvFileOrEnvBlockIsRedactedInTheReport() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("scenarios"));
        Files.writeString(folder.resolve("pod.yaml"), POD);
        Path s = Files.writeString(folder.resolve("s.yaml"), ScenarioErrorsTest.GOOD
                + "transport:\n  envFile: pod.yaml\n  env: |\n    export AWS_SECRET_ACCESS_KEY=aws-SECRET-key\n"
                + "    export UCX_TLS=rc,cuda_copy\n");
        Path out = dir.resolve("out");
        CliTestSupport.Outcome o = CliTestSupport.run("run", s.toString(), "-q", "--out", out.toString());
        assertEquals(0, o.code(), o.err());
        assertFalse((o.out() + o.err()).contains("SECRET"), o.out() + o.err());
        try (Stream<Path> files = Files.list(out)) {
            for (Path f : files.toList()) {
                String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                assertFalse(text.contains("hf_SECRET") || text.contains("aws-SECRET"), f + " holds a secret");
            }
        }
        String index = Files.readString(out.resolve("index.html"));
        for (String shown : List.of("HF_TOKEN=&lt;redacted&gt;", "AWS_SECRET_ACCESS_KEY=&lt;redacted&gt;",
                "UCX_MAX_RMA_RAILS=2", "NCCL_DEBUG=INFO", "UCX_TLS=rc,cuda_copy")) {
            assertTrue(index.contains(shown), shown + " in the environment section");
        }
        CliTestSupport.Outcome explain = CliTestSupport.run("explain", s.toString());
        assertFalse((explain.out() + explain.err()).contains("SECRET"), explain.out() + explain.err());
    }
}
