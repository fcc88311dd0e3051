package org.rdmasim.cli;

import org.rdmasim.hardware.QuantityText;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A duration on the command line, read by {@link QuantityText#seconds} exactly as a scenario's durations
 * are: "0.5 s", "0.5s", "500ms", "3 us", or a bare number of seconds. The value is in seconds.
 */
final class Duration implements ITypeConverter<Double> {
    @Override
    public Double convert(String text) {
        try {
            return QuantityText.seconds(text);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
