package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.RmaEmulation;
import org.rdmasim.transport.backend.NicWriteOrder;
import org.rdmasim.transport.citation.Citation;
import org.rdmasim.transport.config.NcclGdr;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.config.UcxInstall;
import org.rdmasim.transport.config.UcxSite;

/**
 * Every citation of code that {@code explain} prints for the catalogue (each scenario in scenarios/) can be opened
 * at the place it names: a citation object of {@code explain --json} names its file by the path in the repository,
 * never by a bare file name, and has a line; and nowhere in the words explain prints (descriptions, notes, warnings,
 * the sources of the parameters an answer rests on) nor in the committed run reports is code of the modelled
 * stack's repositories cited without its tag and line, unless the words say why there is no line:
 * {@code REPO TAG FILE (no line: WHY)}. The validation table holds to the same form for every repository it
 * cites code of (the stack's, and verl, Mooncake, NeMo RL and the other frameworks its rows read), and there no file
 * of code may be named outside it; the registry of modelled variables gives each default's source in that form too.
 */
class CatalogueCitationsTest {
    /**
     * The repositories whose code the model cites, all of which keep their code in subdirectories: a file of
     * theirs without a directory is a bare name that cannot be opened at the tag.
     */
    static final Set<String> REPOS = Set.of("openucx/ucx", "ai-dynamo/nixl", "ai-dynamo/modelexpress", "NVIDIA/nccl");
    /** The other repositories whose code the validation rows cite (the frameworks whose published times they check). */
    static final Set<String> VALIDATION_REPOS = Set.of("verl-project/verl", "kvcache-ai/Mooncake", "NVIDIA-NeMo/RL",
            "MoonshotAI/checkpoint-engine", "radixark/miles", "vllm-project/vllm", "sgl-project/sglang",
            "whn09/libfabric-efa-demo", "ofiwg/libfabric", "THUDM/slime", "NovaSky-AI/SkyRL",
            "NVIDIA-NeMo/Megatron-Bridge", "linux-rdma/perftest", "linux-rdma/rdma-core", "whitecircle/halo");
    private static final String REPO = "(?:" + String.join("|", java.util.stream.Stream.concat(REPOS.stream(),
            VALIDATION_REPOS.stream()).sorted().map(Pattern::quote).toList()) + ")";
    /** A file of code (or of a build or configuration) by its extension. */
    private static final String CODE = "[\\w./-]*\\w\\.(?:c|cc|cpp|cu|h|hpp|inl|py|sh|am|conf)\\b";
    /** The one citation form: REPO TAG FILE:LINE[-LAST], or REPO TAG FILE (no line: WHY). */
    private static final Pattern CITED = Pattern.compile(
            "\\b(" + REPO + ") (\\S+) ([^\\s:]+)(?::\\d+(?:-\\d+)?\\b| \\(no line: [^)]+\\))");
    /** The repository followed, within two words, by a file of code: a citation, whatever its form. */
    private static final Pattern REPO_AND_FILE = Pattern.compile("\\b" + REPO + "(?: \\S+){0,2}? (" + CODE + ")");
    /** A file of code named alone: no directory before it, no {@code :LINE} after it. */
    private static final Pattern BARE_FILE = Pattern.compile("(?<![\\w./-])([\\w-]+\\.(?:c|cc|cpp|cu|h|hpp|py))\\b(?![:\\w.-])");
    /** A file of code, with or without its directory and line: in the validation table only the one form may name one. */
    private static final Pattern ANY_FILE = Pattern.compile("(?<![\\w./-])([\\w./-]*\\w\\.(?:c|cc|cpp|cu|h|hpp|py))\\b(?![\\w.-])");

    /** What is wrong with one citation, in words; empty when nothing is. */
    static List<String> problems(Citation c) {
        List<String> out = new ArrayList<>();
        if (!REPOS.contains(c.repo())) {
            out.add(c.text() + ": " + c.repo() + " is not a repository this test knows; add it to REPOS if its "
                    + "files live in subdirectories");
        } else if (!c.file().contains("/")) {
            out.add(c.text() + ": " + c.file() + " is a bare file name; " + c.repo() + " keeps its code in "
                    + "subdirectories, so give the path at " + c.tag());
        }
        return out;
    }

    /** What is wrong with the citations of code in one line of printed words; empty when nothing is. */
    static List<String> problems(String text) {
        return problems(text, false);
    }

    /**
     * As {@link #problems(String)}; {@code everyFile} true (the validation table) also refuses a file of code named
     * with its directory but without repository, tag and line: every file of code there is cited in the one form.
     */
    static List<String> problems(String text, boolean everyFile) {
        List<String> out = new ArrayList<>();
        StringBuilder rest = new StringBuilder(text);
        Matcher m = CITED.matcher(text);
        while (m.find()) {
            if (!m.group(3).contains("/")) {
                out.add("'" + m.group() + "': " + m.group(3) + " is a bare file name; give its path in " + m.group(1));
            }
            for (int i = m.start(); i < m.end(); i++) {
                rest.setCharAt(i, ' '); // what is cited in the one form is not read again below
            }
        }
        Matcher loose = REPO_AND_FILE.matcher(rest);
        while (loose.find()) {
            out.add("'" + loose.group().strip() + "': cites " + loose.group(1) + " without the form REPO TAG FILE:LINE "
                    + "(or REPO TAG FILE (no line: WHY))");
            for (int i = loose.start(); i < loose.end(); i++) {
                rest.setCharAt(i, ' ');
            }
        }
        Matcher bare = (everyFile ? ANY_FILE : BARE_FILE).matcher(rest);
        while (bare.find()) {
            out.add("'" + bare.group(1) + "': " + (bare.group(1).contains("/") ? "a file of code" : "a bare file name")
                    + " with no repository, tag or line");
        }
        return out;
    }

    /**
     * Every citation object ({@code repo}, {@code tag}, {@code file}) in a JSON tree, as citations; one without a
     * line (or with its lines backwards) is a problem, not a citation.
     */
    private static void citations(JsonNode node, List<Citation> into, List<String> noLine) {
        if (node.isObject() && node.has("repo") && node.has("tag") && node.has("file")) {
            int line = node.path("line").asInt(0);
            int last = node.path("lastLine").asInt(line);
            if (line < 1 || last < line) {
                noLine.add(node.path("text").asText(node.toString()) + ": no line");
                return;
            }
            Citation c = new Citation(node.get("repo").asText(), node.get("tag").asText(), node.get("file").asText(),
                    line, last, node.has("symbol") ? node.get("symbol").asText() : "",
                    node.has("note") ? node.get("note").asText() : "");
            assertEquals(c.text(), node.get("text").asText(), node.toString());
            into.add(c);
            return;
        }
        node.forEach(child -> citations(child, into, noLine));
    }

    /** Every string in a JSON tree, split into lines. */
    private static void words(JsonNode node, List<String> into) {
        if (node.isTextual()) {
            into.addAll(node.asText().lines().toList());
        }
        node.forEach(child -> words(child, into));
    }

    /** The releases the version-dependent citations are asked about: each UCX and NCCL release a scenario may name. */
    private static List<Citation> siteCitations() {
        List<Citation> out = new ArrayList<>();
        for (int minor = 12; minor <= 23; minor++) {
            StackVersion ucx = new StackVersion(1, minor, 0);
            for (UcxSite s : UcxSite.values()) {
                out.add(s.cite(ucx));
            }
        }
        for (String nccl : List.of("2.18.3", "2.25.1", "2.26.2", "2.27.3", "2.28.9", "2.29.2", "2.30.7")) {
            out.add(NcclGdr.ruleSource(StackVersion.parse(nccl)));
        }
        out.add(NcclGdr.PATH_PHB);
        for (int minor = 12; minor <= 23; minor++) {
            out.add(NicWriteOrder.mrFlags(new StackVersion(1, minor, 0)));
        }
        for (Operation op : Operation.values()) {
            out.add(RmaEmulation.protocolSource(op));
        }
        out.addAll(RmaEmulation.copyEstimateSources());
        for (UcxInstall i : UcxInstall.values()) {
            out.add(i.source(Optional.empty()));
            for (String nixl : List.of("0.4.0", "0.7.0", "0.9.0", "1.0.0", "1.1.0", "1.2.0", "1.4.0")) {
                out.add(i.source(Optional.of(StackVersion.parse(nixl))));
            }
        }
        return out;
    }

    @TempDir
    Path dir;

    /**
     * The catalogue's scenarios, as explain reads them. sizing-1024-receivers is explained with 8 receivers for its
     * 1024: its explain reruns the whole fan-out once per parameter (minutes), and its stack, environment and
     * variants, which are what its citations follow, are kept.
     */
    private List<Path> catalogue() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(CliTestSupport.repo().resolve("scenarios"))) {
            for (Path p : s.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                if (p.getFileName().toString().equals("sizing-1024-receivers.yaml")) {
                    String yaml = Files.readString(p, StandardCharsets.UTF_8);
                    String small = yaml.replace("count: 1024, prefix: r", "count: 8, prefix: r");
                    assertTrue(!small.equals(yaml), "sizing-1024-receivers no longer says 'count: 1024, prefix: r'");
                    p = Files.writeString(dir.resolve(p.getFileName()), small, StandardCharsets.UTF_8);
                }
                out.add(p);
            }
        }
        return out;
    }

    @Test
    void everyCitationExplainPrintsForTheCatalogueNamesAPathAndALine() throws IOException {
        Map<String, Set<String>> bad = new LinkedHashMap<>();
        Set<String> cited = new LinkedHashSet<>();
        Set<String> repos = new LinkedHashSet<>();
        List<Path> scenarios = catalogue();
        assertTrue(scenarios.size() >= 15, "the catalogue holds " + scenarios.size() + " scenarios");
        ObjectMapper json = new ObjectMapper();
        for (Path scenario : scenarios) {
            String name = scenario.getFileName().toString();
            var run = CliTestSupport.run("explain", scenario.toString(), "--json");
            assertEquals(0, run.code(), name + ": " + run.err());
            JsonNode tree = json.readTree(run.out());
            List<Citation> found = new ArrayList<>();
            List<String> noLine = new ArrayList<>();
            citations(tree, found, noLine);
            noLine.forEach(p -> bad.computeIfAbsent(name, k -> new LinkedHashSet<>()).add(p));
            for (Citation c : found) {
                cited.add(c.text());
                repos.add(c.repo());
                problems(c).forEach(p -> bad.computeIfAbsent(name, k -> new LinkedHashSet<>()).add(p));
            }
            List<String> lines = new ArrayList<>();
            words(tree, lines);
            for (String line : lines) {
                problems(line).forEach(p -> bad.computeIfAbsent(name, k -> new LinkedHashSet<>()).add(p));
            }
        }
        for (Citation c : siteCitations()) {
            cited.add(c.text());
            problems(c).forEach(p -> bad.computeIfAbsent("version-dependent sites", k -> new LinkedHashSet<>()).add(p));
        }
        assertEquals(Map.of(), bad, "citations that cannot be opened at the place they name");
        // not vacuous: the catalogue cites code of every repository of the stack, and many places of it
        assertEquals(REPOS, repos, "repositories the catalogue's explain pages cite");
        assertTrue(cited.size() >= 60, "only " + cited.size() + " distinct citations checked");
    }

    @Test
    void theCommittedReportsCiteCodeInTheOneForm() throws IOException {
        Map<String, Set<String>> bad = new LinkedHashMap<>();
        int reports = 0;
        ObjectMapper json = new ObjectMapper();
        try (Stream<Path> s = Files.walk(CliTestSupport.repo().resolve("reports"))) {
            for (Path summary : s.filter(p -> p.getFileName().toString().equals("summary.json")).sorted().toList()) {
                reports++;
                List<String> lines = new ArrayList<>();
                words(json.readTree(summary.toFile()), lines);
                for (String line : lines) {
                    problems(line).forEach(p -> bad.computeIfAbsent(summary.toString(), k -> new LinkedHashSet<>()).add(p));
                }
            }
        }
        assertTrue(reports >= 15, "read " + reports + " reports");
        // the validation table cites every repository's code in the one form, and names no file of code outside it
        Path validation = CliTestSupport.repo().resolve("reports/validation/validation.json");
        List<String> lines = new ArrayList<>();
        words(json.readTree(validation.toFile()), lines);
        assertTrue(lines.size() > 100, validation + " holds " + lines.size() + " lines");
        for (String line : lines) {
            problems(line, true).forEach(p -> bad.computeIfAbsent(validation.toString(), k -> new LinkedHashSet<>()).add(p));
        }
        assertEquals(Map.of(), bad, "citations of code in the reports that cannot be opened at the place they name");
    }

    /** The one form, alone: REPO TAG FILE:LINE[-LAST] and nothing after it. */
    private static final Pattern ONLY_CITED = Pattern.compile(CITED.pattern().replace("(?::\\d+(?:-\\d+)?\\b|",
            "(?::\\d+(?:-\\d+)?|") + "$");

    @Test
    void everyKnownVariableNamesWhereItsDefaultIsDefinedAtATagAndLine() {
        Map<String, String> bad = new LinkedHashMap<>();
        Set<String> repos = new LinkedHashSet<>();
        for (org.rdmasim.transport.config.KnownVariable v : org.rdmasim.transport.config.KnownVariables.all()) {
            Matcher m = ONLY_CITED.matcher(v.source());
            if (!m.matches() || !m.group(3).contains("/") || v.source().contains("(no line")) {
                bad.put(v.name(), v.source());
            } else {
                repos.add(m.group(1));
            }
        }
        assertEquals(Map.of(), bad, "sources not in the form REPO TAG FILE:LINE");
        // not vacuous: the registry's defaults come from UCX, NCCL and ModelExpress
        assertEquals(Set.of("openucx/ucx", "NVIDIA/nccl", "ai-dynamo/modelexpress"), repos);
        // and the rule refuses what it is for
        assertTrue(!ONLY_CITED.matcher("openucx/ucx src/ucp/core/ucp_context.c").matches());
        assertTrue(!ONLY_CITED.matcher("openucx/ucx v1.20.0 src/ucp/core/ucp_context.c").matches());
        assertTrue(ONLY_CITED.matcher("openucx/ucx v1.20.0 src/ucp/core/ucp_context.c:233").matches());
    }

    @Test
    void theRulesCatchWhatTheyAreFor() throws IOException {
        // a citation object with no line, and one with its lines backwards
        List<Citation> read = new ArrayList<>();
        List<String> noLine = new ArrayList<>();
        citations(new ObjectMapper().readTree("{\"a\": {\"repo\": \"openucx/ucx\", \"tag\": \"v1.20.0\", "
                + "\"file\": \"src/ucp/rma/get_am.c\", \"text\": \"openucx/ucx v1.20.0 src/ucp/rma/get_am.c\"}, "
                + "\"b\": [{\"repo\": \"openucx/ucx\", \"tag\": \"v1.20.0\", \"file\": \"src/a.c\", \"line\": 20, "
                + "\"lastLine\": 10, \"text\": \"openucx/ucx v1.20.0 src/a.c:20-10\"}]}"), read, noLine);
        assertEquals(List.of(), read);
        assertEquals(List.of("openucx/ucx v1.20.0 src/ucp/rma/get_am.c: no line", "openucx/ucx v1.20.0 src/a.c:20-10: "
                + "no line"), noLine);
        // a bare file name in a citation object, and in words
        assertEquals(1, problems(new Citation("ai-dynamo/modelexpress", "v0.5.1", "ucx_utils.py", 425, 425,
                "_resolve_nic_pin")).size());
        assertEquals(List.of(), problems(Citation.parse(
                "ai-dynamo/modelexpress v0.5.1 modelexpress_client/python/modelexpress/ucx_utils.py:425 x")));
        assertEquals(1, problems(new Citation("example/repo", "v1", "src/a.c", 1, 1, "")).size());
        assertEquals(1, problems("source: ai-dynamo/modelexpress 2c6fd8ac ucx_utils.py:476 apply_nic_pin_for_device")
                .size());
        // code cited without tag, without line, or with neither
        assertEquals(1, problems("(openucx/ucx v1.20.0 src/ucp/rma/get_am.c): without GPUDirect RDMA").size());
        assertEquals(1, problems("UCX_IB_MEM_REG_OVERHEAD (openucx/ucx src/uct/ib/base/ib_md.c, marked there)").size());
        assertEquals(1, problems("derived (NVIDIA/nccl src/init.cc DEFAULT_BUFFSIZE (1 << 22))").size());
        assertEquals(1, problems("only as latency (openucx/ucx topo.c L616-656), so").size());
        // a file named alone
        assertEquals(1, problems("a synchronous cuda_copy (UCX's own estimate, cuda_copy_iface.c): at most").size());
        // the one form, alone and joined; a line that cannot be given, with the reason
        assertEquals(List.of(), problems("source: openucx/ucx v1.20.0 src/uct/ib/base/ib_iface.c:1387 "
                + "uct_ib_iface_set_num_paths, :2007 uct_ib_iface_estimate_path_bw"));
        assertEquals(List.of(), problems("(openucx/ucx v1.20.0 src/uct/ib/base/ib_md.c:55-56 uct_ib_md_config_table)"));
        assertEquals(List.of(), problems("ai-dynamo/nixl v1.1.0 src/x/y.cpp (no line: the call is generated)"));
        // the validation rows' other repositories: a bare name, a path without repository and tag, a line in words
        assertEquals(1, problems("(Mooncake 6e3a11b9 rdma_endpoint.cpp L1155-1157)", true).size());
        assertEquals(1, problems("(kvcache-ai/Mooncake 6e3a11b9 rdma_endpoint.cpp:1155-1157)", true).size());
        assertEquals(1, problems("host work (nemo_rl/weight_sync/xferdtensor_python.py), Megatron's", true).size());
        assertEquals(1, problems("(verl/workers/engine/fsdp/transformer_impl.py L693-700 @01dc76da7)", true).size());
        assertEquals(1, problems("auto keeps that one (openucx/ucx ucp_context.c v1.22.0 L2001-2011)", true).size());
        assertEquals(List.of(), problems("(verl-project/verl 01dc76da7 verl/workers/engine/fsdp/transformer_impl.py"
                + ":693-700), then (verl-project/verl 1dda039b verl/checkpoint_engine/mooncake_checkpoint_engine.py"
                + ":215), :171", true));
        assertEquals(List.of(), problems("sgl-project/sglang 0005973a python/sglang/srt/disaggregation/utils.py "
                + "(no line: too large to mirror)", true));
        // outside the validation table a path with its directory is left to the other rules
        assertEquals(List.of(), problems("host work (nemo_rl/weight_sync/xferdtensor_python.py), Megatron's"));
        // not citations of code: issues, pull requests, documents, commits, words
        assertEquals(List.of(), problems("ai-dynamo/modelexpress PR #450 [mx-pr-450]: 0.331 s; NVIDIA/nccl #2409"));
        assertEquals(List.of(), problems("ai-dynamo/modelexpress docs/BENCHMARKS.md at b6eed148; UCX reads its "
                + "ucx.conf"));
    }
}
