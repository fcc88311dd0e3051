package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The CSV columns the README's "Outputs" section documents are the columns every committed report has. */
class OutputContractTest {
    private static String documentedColumns(String readme, String file) {
        int at = readme.indexOf("- `" + file + "`");
        assertTrue(at >= 0, file + " is documented in README.md's Outputs");
        Matcher m = Pattern.compile("`(variant,[a-z_,]+)`").matcher(readme.substring(at).replace("\n  ", ""));
        assertTrue(m.find(), "a column list for " + file);
        return m.group(1);
    }

    @Test
    void everyReportsCsvHeaderIsTheDocumentedOne() throws Exception {
        Path repo = CliTestSupport.repo();
        String readme = Files.readString(repo.resolve("README.md"), StandardCharsets.UTF_8);
        for (String file : List.of("transfers.csv", "resources.csv")) {
            String documented = documentedColumns(readme, file);
            List<Path> reports;
            try (Stream<Path> s = Files.list(repo.resolve("reports"))) {
                reports = s.map(p -> p.resolve(file)).filter(Files::isRegularFile).sorted().toList();
            }
            assertTrue(reports.size() >= 5, "reports hold " + file);
            for (Path p : reports) {
                String header = Files.readAllLines(p, StandardCharsets.UTF_8).get(0);
                assertEquals(documented, header, p.toString());
            }
        }
    }
}
