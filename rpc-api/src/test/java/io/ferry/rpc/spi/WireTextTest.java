package io.ferry.rpc.spi;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Control characters from the wire become visible escapes; clean text is returned as it is. */
class WireTextTest {
    @Test
    void aForgedLineAndTerminalCodesBecomeVisible() {
        String forged = "com.acme.Evil\n12:00:00.000 [main] INFO Server - \u001b[31mall good\u001b[0m\r\t";
        assertEquals("com.acme.Evil\\n12:00:00.000 [main] INFO Server - \\u001b[31mall good\\u001b[0m\\r\\t",
                WireText.escape(forged));
    }

    @Test
    void c1ControlsDelLineSeparatorsAndBidiOverridesAreEscapedToo() {
        assertEquals("a\\u007fb\\u0085c\\u009bd\\u2028e\\u2029f\\u202eg\\u2066h",
                WireText.escape("a\u007fb\u0085c\u009bd\u2028e\u2029f\u202eg\u2066h"));
    }

    @Test
    void cleanTextIsTheSameInstanceAndEscapingTwiceChangesNothingMore() {
        String clean = "io.ferry.Greeter:1.0.0 hello(Ljava/lang/String;) C:\\temp é 漢字";
        assertSame(clean, WireText.escape(clean));
        String once = WireText.escape("a\nb\u001b");
        assertSame(once, WireText.escape(once));
        assertNull(WireText.escape((String) null));
        assertEquals("null", WireText.escape((Object) null));
    }
}
