package org.rdmasim.importers.env;

import org.rdmasim.transport.config.EnvEntry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The variables read from one env block, in the order they appear, with any warnings the reader
 * raised (for example a Kubernetes {@code valueFrom} entry that has no value until the pod runs).
 *
 * <p>The format is detected from the text: if the first line that is neither blank nor a comment
 * looks like a YAML key ({@code apiVersion:}, {@code env:}, {@code - name:}) or a document marker
 * ({@code ---}), the block is read as Kubernetes YAML; otherwise as shell lines. A shell assignment
 * never has a {@code key:} before its {@code =}, so the two cannot be confused.
 *
 * @param format   the detected format
 * @param entries  every assignment, in source order; a name may appear more than once
 * @param warnings human-readable warnings, each starting with {@code FILE:LINE:}
 */
public record EnvBlock(EnvFormat format, List<EnvEntry> entries, List<String> warnings) {

    private static final Pattern YAML_KEY_LINE =
            Pattern.compile("^\\s*(-\\s+)?[A-Za-z_][A-Za-z0-9_.-]*\\s*:(\\s.*)?$");

    public EnvBlock {
        entries = List.copyOf(entries);
        warnings = List.copyOf(warnings);
    }

    /** Reads {@code text}; {@code sourceLabel} names it in entries and messages. */
    public static EnvBlock parse(String text, String sourceLabel) {
        if (detect(text) == EnvFormat.KUBERNETES_YAML) {
            return KubernetesEnvReader.read(text, sourceLabel);
        }
        return ShellEnvReader.read(text, sourceLabel);
    }

    /** Reads a file as UTF-8; entries are labelled with the file name as given. */
    public static EnvBlock parse(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read env block " + file, e);
        }
    }

    /** The format {@link #parse(String, String)} would use for {@code text}. */
    public static EnvFormat detect(String text) {
        for (String raw : text.split("\\R", -1)) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            boolean yaml = line.equals("---") || YAML_KEY_LINE.matcher(raw).matches();
            return yaml ? EnvFormat.KUBERNETES_YAML : EnvFormat.SHELL;
        }
        return EnvFormat.SHELL;
    }
}
