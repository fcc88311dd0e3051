package org.rdmasim.scenario;

import org.rdmasim.importers.InputLimits;

/**
 * Checks on the names a scenario gives (scenario, variant, host): each becomes a folder or file name
 * and a chart label, so it is bounded in length and may not be {@code .} or {@code ..}.
 */
final class Names {
    private Names() {
    }

    /** {@code v}'s text as a name of {@code what}, or an error naming the broken rule. */
    static String checked(YamlTree v, String what) {
        return checked(v, v.text(), what);
    }

    static String checked(YamlTree at, String name, String what) {
        if (name.isBlank()) {
            throw at.error("a " + what + " name must not be empty");
        }
        if (name.length() > InputLimits.MAX_NAME_CHARS) {
            throw at.error("a " + what + " name is " + name.length() + " characters long, over the limit of "
                    + InputLimits.MAX_NAME_CHARS);
        }
        if (name.equals(".") || name.equals("..")) {
            throw at.error("'" + name + "' cannot be a " + what + " name (it names a folder)");
        }
        for (int i = 0; i < name.length(); i++) {
            if (Character.isISOControl(name.charAt(i)) || name.charAt(i) == '/' || name.charAt(i) == '\\') {
                throw at.error("a " + what + " name must not contain control characters or path separators");
            }
        }
        return name;
    }
}
