package io.ferry.rpc.config.option;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The README's option reference is the option table's, and the table's declarations hold together. */
class OptionReferenceTest {
    private static final Path README = Path.of("..", "README.md");
    private static final String BEGIN = "<!-- options:begin -->\n";
    private static final String END = "<!-- options:end -->";

    @Test
    void theReadmeShowsEveryOptionAsDeclared() throws Exception {
        String readme = Files.readString(README, StandardCharsets.UTF_8);
        int begin = readme.indexOf(BEGIN) + BEGIN.length();
        int end = readme.indexOf(END);
        assertTrue(begin >= BEGIN.length() && end >= begin, "the README has the option markers");
        String expected = Options.markdownTable();
        if (Boolean.getBoolean("ferry.updateReadme")) {
            Files.writeString(README, readme.substring(0, begin) + expected + readme.substring(end),
                    StandardCharsets.UTF_8);
            return;
        }
        assertEquals(expected, readme.substring(begin, end),
                "the README's option reference is stale: run this test with -Dferry.updateReadme=true");
    }

    @Test
    void namesAreUniqueWithinAScopeAndEveryOptionIsDocumented() {
        Set<String> seen = new HashSet<>();
        for (Option<?> option : Options.all()) {
            for (Scope scope : option.scopes()) {
                assertTrue(seen.add(scope.key() + "." + option.name()), "declared twice: " + scope.key() + "."
                        + option.name());
            }
            assertTrue(!option.doc().isBlank(), option.name() + " has no documentation");
        }
    }

    @Test
    void aValueOutsideItsRangeIsRefusedNamingWhereItCameFrom() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Options.TIMEOUT.check(Duration.ofMillis(-5), "ferry.xml:12: <reference id=\"greeter\">"));
        assertEquals("ferry.xml:12: <reference id=\"greeter\">: timeout: -5ms (expected: > 0)", e.getMessage());
        assertEquals("connections: 2000 (expected: 0..1024)", assertThrows(IllegalArgumentException.class,
                () -> Options.CONNECTIONS.check(2000, "")).getMessage());
        assertEquals(Duration.ofNanos(1), Options.TIMEOUT.check(Duration.ofNanos(1), ""), "any positive duration");
    }
}
