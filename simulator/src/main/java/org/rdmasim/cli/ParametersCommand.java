package org.rdmasim.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.rdmasim.scenario.Parameter;
import org.rdmasim.scenario.Parameters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code rdmasim parameters}: every declared user parameter with its scenario field, command-line
 * option, unit, default, physical range and the source of its default, as a Markdown table (the
 * README's table is this command's output).
 */
@Command(name = "parameters", mixinStandardHelpOptions = true,
        description = "List every declared parameter: scenario field, option, unit, default, range, source.",
        footer = {"", "Example: rdmasim parameters", "",
                "Exit codes: 0 listed, 2 bad input, " + Main.INTERNAL_ERROR_WORDS + "."})
public final class ParametersCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        out.print(table());
        out.flush();
        return Main.OK;
    }

    static String table() {
        StringBuilder b = new StringBuilder("| field | option | unit | default | allowed | default's source |\n"
                + "|---|---|---|---|---|---|\n");
        for (Parameter<?> p : Parameters.all()) {
            b.append("| `").append(p.field()).append("` | ").append(p.hasOption() ? "`" + p.option() + "`" : "")
                    .append(" | ").append(p.unit().replace("|", "\\|")).append(" | ").append(p.defaultText())
                    .append(" | ").append(p.range().why().isEmpty() ? "any of the words" : p.range().why())
                    .append(" | ").append(p.source()).append(" |\n");
        }
        return b.toString();
    }
}
