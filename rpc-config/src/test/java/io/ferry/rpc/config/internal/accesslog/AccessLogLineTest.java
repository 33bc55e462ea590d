package io.ferry.rpc.config.internal.accesslog;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The line's fields, and that nothing in a record can break it into two. */
class AccessLogLineTest {
    private static final long AT = Instant.parse("2025-05-01T10:00:00.123Z").toEpochMilli();
    private static final InetSocketAddress CALLER = new InetSocketAddress("10.0.0.7", 51234);

    @Test
    void aLineHoldsTheTimeInUtcWithMillisTheCallerTheCallItsStatusAndMicroseconds() {
        String line = AccessLogLine.format(new AccessRecord(AT, TimeUnit.MICROSECONDS.toNanos(812) + 999, CALLER,
                null, "shop/com.acme.Greeter:1.0", "greet", "OK", null));

        assertEquals("2025-05-01T10:00:00.123Z from=10.0.0.7:51234 service=shop/com.acme.Greeter:1.0 method=greet"
                + " status=OK micros=812", line);
    }

    @Test
    void theCommonNameIsQuotedAndArgumentsComeLast() {
        String line = AccessLogLine.format(new AccessRecord(AT, 0, CALLER, "John \"JJ\" Smith", "Greeter",
                "greet", "FORBIDDEN", "[\"Ada\"]"));

        assertEquals("2025-05-01T10:00:00.123Z from=10.0.0.7:51234"
                + " cn=\"John \\\"JJ\\\" Smith\" service=Greeter method=greet status=FORBIDDEN micros=0"
                + " args=[\"Ada\"]", line);
    }

    @Test
    void hostileNamesAreEscapedSoNoRecordForgesALine() {
        String forged = "\n2025-05-01T10:00:00.123Z from=1.2.3.4:1 service=x method=y status=OK micros=1\u001b[31m";
        String line = AccessLogLine.format(new AccessRecord(AT, 0, CALLER, "evil\r\n" + forged,
                "Greeter" + forged, "greet" + forged, "com.acme.Boom" + forged, null));

        assertFalse(line.contains("\n") || line.contains("\r") || line.contains("\u001b"), line);
        assertTrue(line.contains("method=greet\\n2025-05-01T10:00:00.123Z"), line);
        assertTrue(line.contains("\\u001b[31m"), line);
        assertTrue(line.contains("cn=\"evil\\r\\n"), line);
    }

    @Test
    void aCallerThatIsNoInternetAddressIsShownAsItPrintsEscaped() {
        java.net.SocketAddress local = new java.net.SocketAddress() {
            @Override
            public String toString() {
                return "local:\nchannel";
            }
        };
        assertTrue(AccessLogLine.format(new AccessRecord(AT, 0, local, null, "S", "m", "OK", null))
                .contains(" from=local:\\nchannel "));
    }
}
