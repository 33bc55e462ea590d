package io.ferry.rpc.remoting;

/**
 * Writes one JSON document into a string, for the admin port's answers. Every string, names included, is escaped
 * whatever it holds (values come from users' configuration and from peers): quotes and backslashes, every control
 * character, U+2028 and U+2029, a lone surrogate, and {@code < > &} (so a page may embed the document in a
 * {@code <script>} element). A number that JSON cannot hold (NaN, an infinity) is written as {@code null}.
 * <pre>{@code
 * String json = new JsonWriter().beginObject().field("ready", false).field("reason", "offline").endObject()
 *         .json();   // {"ready":false,"reason":"offline"}
 * }</pre>
 * The caller nests calls correctly; the writer checks only that every container it opened was closed when the
 * document is taken. Not thread-safe.
 */
public final class JsonWriter {
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private final StringBuilder out = new StringBuilder(256);
    /** A value was written in the current container: the next one needs a comma. */
    private boolean afterValue;
    private int depth;

    public JsonWriter beginObject() {
        separate();
        out.append('{');
        depth++;
        afterValue = false;
        return this;
    }

    public JsonWriter endObject() {
        return close('}');
    }

    public JsonWriter beginArray() {
        separate();
        out.append('[');
        depth++;
        afterValue = false;
        return this;
    }

    public JsonWriter endArray() {
        return close(']');
    }

    /** A member's name; its value follows. */
    public JsonWriter name(String name) {
        separate();
        string(name);
        out.append(':');
        afterValue = false;
        return this;
    }

    /** A string, or {@code null} for null. */
    public JsonWriter value(String value) {
        separate();
        if (value == null) {
            out.append("null");
        } else {
            string(value);
        }
        afterValue = true;
        return this;
    }

    public JsonWriter value(long value) {
        separate();
        out.append(value);
        afterValue = true;
        return this;
    }

    /** A number; NaN and the infinities, which JSON has no form for, as {@code null}. */
    public JsonWriter value(double value) {
        separate();
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            out.append("null");
        } else {
            out.append(value);
        }
        afterValue = true;
        return this;
    }

    public JsonWriter value(boolean value) {
        separate();
        out.append(value);
        afterValue = true;
        return this;
    }

    public JsonWriter field(String name, String value) {
        return name(name).value(value);
    }

    public JsonWriter field(String name, long value) {
        return name(name).value(value);
    }

    public JsonWriter field(String name, double value) {
        return name(name).value(value);
    }

    public JsonWriter field(String name, boolean value) {
        return name(name).value(value);
    }

    /**
     * The document.
     *
     * @throws IllegalStateException when an object or array is still open
     */
    public String json() {
        if (depth != 0) {
            throw new IllegalStateException(depth + " JSON container(s) still open: " + out);
        }
        return out.toString();
    }

    /** What is written so far, finished or not. */
    @Override
    public String toString() {
        return out.toString();
    }

    private JsonWriter close(char bracket) {
        if (depth == 0) {
            throw new IllegalStateException("no JSON container to close with " + bracket);
        }
        out.append(bracket);
        depth--;
        afterValue = true;
        return this;
    }

    private void separate() {
        if (afterValue) {
            out.append(',');
        }
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029' || c == '<' || c == '>' || c == '&'
                            || isLoneSurrogate(s, i)) {
                        unicode(c);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** A surrogate that is not half of a pair: as raw UTF-16 it would not survive encoding to UTF-8. */
    private static boolean isLoneSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(s.charAt(i - 1));
        }
        return false;
    }

    private void unicode(char c) {
        out.append("\\u").append(HEX[(c >> 12) & 0xf]).append(HEX[(c >> 8) & 0xf]).append(HEX[(c >> 4) & 0xf])
                .append(HEX[c & 0xf]);
    }
}
