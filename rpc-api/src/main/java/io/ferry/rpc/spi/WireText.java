package io.ferry.rpc.spi;

/**
 * Text that came from the wire (service, method and class names, versions, a peer's error message), made safe to
 * log or to put in an error answer: control characters become visible escapes, so that such text cannot start a
 * forged log line or drive a terminal. A newline shows as {@code \n}, a carriage return as {@code \r}, a tab as
 * {@code \t}, every other one as {@code \}{@code u} and four hex digits ({@code \}{@code u001b} for ESC). Escaped:
 * C0 and C1 controls, DEL, the Unicode line and paragraph separators, and the bidirectional overrides (which make
 * text read otherwise than it is). A backslash is left as it is: it neither starts a line nor moves a cursor.
 *
 * <p>Text that needs nothing comes back as the same instance, with no allocation; applying it twice changes
 * nothing more than applying it once.
 */
public final class WireText {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private WireText() {
    }

    /** {@code text} with its control characters escaped; null stays null. */
    public static String escape(String text) {
        if (text == null) {
            return null;
        }
        for (int i = 0; i < text.length(); i++) {
            if (isControl(text.charAt(i))) {
                return escapeFrom(text, i);
            }
        }
        return text;
    }

    /** The escaped {@code String.valueOf(value)}: for an exception's {@code toString()}, say. */
    public static String escape(Object value) {
        return escape(String.valueOf(value));
    }

    static boolean isControl(char c) {
        return c < 0x20 || c >= 0x7f && c <= 0x9f || c == '\u2028' || c == '\u2029'
                || c >= '\u202a' && c <= '\u202e' || c >= '\u2066' && c <= '\u2069';
    }

    private static String escapeFrom(String text, int first) {
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, first);
        for (int i = first; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!isControl(c)) {
                out.append(c);
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else {
                out.append("\\u").append(HEX[c >> 12 & 0xf]).append(HEX[c >> 8 & 0xf]).append(HEX[c >> 4 & 0xf])
                        .append(HEX[c & 0xf]);
            }
        }
        return out.toString();
    }
}
