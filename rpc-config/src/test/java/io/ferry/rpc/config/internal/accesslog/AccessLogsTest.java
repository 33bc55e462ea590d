package io.ferry.rpc.config.internal.accesslog;

import io.ferry.rpc.Ticker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The option's values, and files: made with their directories, appended to, shared, refused with a reason. */
class AccessLogsTest {
    @TempDir
    Path dir;

    private static AccessRecord call(String method) {
        return new AccessRecord(0, 0, new InetSocketAddress("127.0.0.1", 40000), null, "Greeter", method, "OK", null);
    }

    @Test
    void theOptionReadsAsDubboReadsIt() {
        assertNull(AccessLogDestination.parse("false", ""));
        assertNull(AccessLogDestination.parse("FALSE", ""));
        assertTrue(AccessLogDestination.parse("true", "").isLogger());
        assertTrue(AccessLogDestination.parse("default", "").isLogger(), "Dubbo's other word for the logger");
        assertEquals(Path.of("logs/access.log").toAbsolutePath(), AccessLogDestination.parse(" logs/./access.log ",
                "").file(), "relative to the working directory, normalised");
        assertEquals("ferry.xml:4: <service>: accesslog: 'a\0b' (expected: true, false or a file name: Nul "
                + "character not allowed)", assertThrows(IllegalArgumentException.class,
                () -> AccessLogDestination.parse("a\0b", "ferry.xml:4: <service>")).getMessage());
    }

    @Test
    void aFileIsCreatedWithItsDirectoriesAppendedToAndSharedByItsNames() throws Exception {
        Path file = dir.resolve("a/b/access.log");
        AccessLogs logs = new AccessLogs(Ticker.system());
        AccessLogWriter writer = logs.writer(AccessLogDestination.parse(file.toString(), ""), "");
        assertSame(writer, logs.writer(AccessLogDestination.parse(dir + "/a/../a/b/access.log", ""), ""));
        writer.offer(call("first"));
        logs.close();

        AccessLogs again = new AccessLogs(Ticker.system());
        again.writer(AccessLogDestination.parse(file.toString(), ""), "").offer(call("second"));
        again.close();
        List<String> lines = Files.readAllLines(file);
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(0).contains("method=first") && lines.get(1).contains("method=second"), lines.toString());
        assertEquals(0, again.droppedLines());
    }

    @Test
    void aFileThatCannotBeOpenedFailsNamingTheOptionAndThePath() throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("plain"), "a file");
        Path file = notADirectory.resolve("access.log");
        AccessLogs logs = new AccessLogs(Ticker.system());

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> logs.writer(AccessLogDestination.parse(file.toString(), ""), "ferry.xml:3: <protocol>"));
        assertTrue(e.getMessage().startsWith("ferry.xml:3: <protocol>: accesslog: cannot open " + file
                + " for append: java.nio.file."), e.getMessage());
        logs.close();
    }

    @Test
    void droppedLinesAddUpOverEveryDestination() throws Exception {
        HeldSink one = new HeldSink();
        HeldSink two = new HeldSink();
        AccessLogs logs = new AccessLogs(d -> d.isLogger() ? one : two, 1, Ticker.system());
        for (HeldSink sink : List.of(one, two)) {
            sink.hold();
        }
        AccessLogWriter toLogger = logs.writer(AccessLogDestination.logger(), "");
        AccessLogWriter toFile = logs.writer(AccessLogDestination.parse(dir.resolve("x.log").toString(), ""), "");
        for (AccessLogWriter writer : List.of(toLogger, toFile)) {
            writer.offer(call("held"));
        }
        assertTrue(one.awaitWriting() && two.awaitWriting());
        for (AccessLogWriter writer : List.of(toLogger, toFile)) {
            writer.offer(call("queued"));
            writer.offer(call("dropped"));
        }
        toFile.offer(call("dropped too"));

        assertEquals(3, logs.droppedLines());
        one.release();
        two.release();
        logs.close();
        assertEquals(List.of("held", "queued"), one.methods());
        assertEquals(3, logs.droppedLines(), "still readable after close");
    }
}
