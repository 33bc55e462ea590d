package io.ferry.rpc.config.internal.accesslog;

import io.ferry.rpc.spi.WireText;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.TimeUnit;

/**
 * One access-log line, on the writer thread:
 * <pre>
 * 2025-05-01T10:00:00.123Z from=10.0.0.7:51234 cn="orders" service=shop/com.acme.Greeter:1.0 method=greet status=OK micros=812 args=["Ada", 3]
 * </pre>
 * The time is the call's start in UTC, with milliseconds; {@code cn} only with a verified client certificate that
 * has one common name; {@code args} only when asked for, and always last, since argument text holds spaces. Every
 * text is escaped ({@link WireText}), so that nothing in a record can end the line and start a forged one.
 */
public final class AccessLogLine {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSX")
            .withZone(ZoneOffset.UTC);

    private AccessLogLine() {
    }

    /** The line for {@code record}, without a line separator. */
    public static String format(AccessRecord record) {
        StringBuilder line = new StringBuilder(160);
        TIME.formatTo(Instant.ofEpochMilli(record.startMillis()), line);
        line.append(" from=").append(address(record));
        if (record.commonName() != null && !record.commonName().isEmpty()) {
            line.append(" cn=").append(quoted(record.commonName()));
        }
        line.append(" service=").append(WireText.escape(record.serviceKey()))
                .append(" method=").append(WireText.escape(record.method()))
                .append(" status=").append(WireText.escape(record.status()))
                .append(" micros=").append(TimeUnit.NANOSECONDS.toMicros(record.tookNanos()));
        if (record.arguments() != null) {
            line.append(" args=").append(record.arguments()); // rendered escaped already
        }
        return line.toString();
    }

    /** host:port with no name lookup; a name chosen by the CA may hold spaces and quotes, hence the quotes. */
    private static String address(AccessRecord record) {
        if (record.caller() instanceof InetSocketAddress inet) {
            return WireText.escape(inet.getHostString()) + ":" + inet.getPort();
        }
        return WireText.escape(String.valueOf(record.caller()));
    }

    /** {@code text} in double quotes, its quotes and backslashes escaped, then its control characters. */
    static String quoted(String text) {
        return '"' + WireText.escape(text.replace("\\", "\\\\").replace("\"", "\\\"")) + '"';
    }
}
