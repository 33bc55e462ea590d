package io.ferry.rpc.config.internal.accesslog;

import io.ferry.rpc.spi.WireText;

import java.lang.reflect.Array;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;

/**
 * A call's argument values as the access log shows them when asked: {@code ["Ada", 3, [1, 2], {k=v}]}. Bounded, so
 * that a huge argument costs the business thread little: collections, maps and arrays are walked only until the
 * argument's text is full, each argument is cut at {@value #PER_ARGUMENT} characters and the whole at
 * {@value #IN_ALL} (a cut ends in {@code ...}); {@code byte[]} shows its length only. Strings are quoted; other
 * objects show their {@code toString()}. Everything is escaped ({@link WireText}): the values came from the wire.
 */
public final class ArgumentText {
    static final int PER_ARGUMENT = 256;
    static final int IN_ALL = 1024;
    private static final String CUT = "...";

    private ArgumentText() {
    }

    /** The arguments' text, at most {@value #IN_ALL} characters and the brackets. */
    public static String of(Object[] arguments) {
        int budget = IN_ALL - (", ".length() + CUT.length()); // a last ", ..." always fits
        StringBuilder all = new StringBuilder("[");
        StringBuilder one = new StringBuilder();
        for (int i = 0; i < arguments.length; i++) {
            String separator = i == 0 ? "" : ", ";
            int room = budget - (all.length() - 1) - separator.length();
            all.append(separator);
            if (room <= CUT.length()) {
                all.append(CUT);
                break;
            }
            one.setLength(0);
            int limit = Math.min(PER_ARGUMENT, room);
            try {
                render(arguments[i], one, limit);
            } catch (RuntimeException e) { // a collection changed under us, say: the call must not fail for it
                one.setLength(0);
                one.append("(unreadable: ").append(e.getClass().getName()).append(')');
            }
            all.append(one.length() > limit ? one.substring(0, limit - CUT.length()) + CUT : one);
        }
        return all.append(']').toString();
    }

    /** Appends {@code value}, stopping to descend once {@code out} is past {@code limit}. */
    private static void render(Object value, StringBuilder out, int limit) {
        if (value == null || value instanceof Number || value instanceof Boolean || value instanceof Enum<?>) {
            out.append(value);
        } else if (value instanceof CharSequence || value instanceof Character) {
            // more than the limit is never shown: do not copy more of a long string than that
            String text = String.valueOf(value);
            out.append(AccessLogLine.quoted(text.length() > limit ? text.substring(0, limit) : text));
        } else if (value instanceof byte[] bytes) {
            out.append("byte[").append(bytes.length).append(']');
        } else if (value.getClass().isArray()) {
            int length = Array.getLength(value);
            out.append('[');
            for (int i = 0; i < length && out.length() <= limit; i++) {
                out.append(i == 0 ? "" : ", ");
                render(Array.get(value, i), out, limit);
            }
            out.append(']');
        } else if (value instanceof Collection<?> collection) {
            out.append('[');
            elements(collection.iterator(), out, limit);
            out.append(']');
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            Iterator<? extends Map.Entry<?, ?>> entries = map.entrySet().iterator();
            for (boolean first = true; entries.hasNext() && out.length() <= limit; first = false) {
                Map.Entry<?, ?> entry = entries.next();
                out.append(first ? "" : ", ");
                render(entry.getKey(), out, limit);
                out.append('=');
                render(entry.getValue(), out, limit);
            }
            out.append('}');
        } else {
            out.append(WireText.escape(shown(value)));
        }
    }

    private static void elements(Iterator<?> it, StringBuilder out, int limit) {
        for (boolean first = true; it.hasNext() && out.length() <= limit; first = false) {
            out.append(first ? "" : ", ");
            render(it.next(), out, limit);
        }
    }

    /** An object's own text; one whose toString fails still leaves a line. */
    private static String shown(Object value) {
        try {
            String text = String.valueOf(value);
            return text.length() > PER_ARGUMENT ? text.substring(0, PER_ARGUMENT + 1) : text;
        } catch (RuntimeException e) {
            return value.getClass().getName() + "(toString threw " + e.getClass().getName() + ")";
        }
    }
}
