package io.ferry.rpc.config.internal.files;

import java.util.Collection;
import java.util.Locale;

/** The valid name nearest to a mistyped one, for "did you mean" hints in configuration errors. */
public final class DidYouMean {
    private DidYouMean() {
    }

    /** The name within a few edits of {@code typed} (ignoring case), or null when none is that close. */
    public static String nearest(String typed, Collection<String> names) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String name : names) {
            int d = distance(typed.toLowerCase(Locale.ROOT), name.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = name;
            }
        }
        return best != null && bestDistance <= Math.max(2, typed.length() / 3) ? best : null;
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
