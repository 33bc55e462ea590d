package io.ferry.rpc.config;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.config.fixtures.UserService;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a user who logs settings or an invocation reads: a table, attachment keys, never a secret value. */
class ToStringTest {
    @Test
    void settingsPrintAsATableOfOptionValueAndWhereSet() {
        try (Ferry ferry = Ferry.builder().shutdownHook(false).build()) {
            String table = ferry.settingsOf(ReferenceConfig.builder(UserService.class).timeout(Duration.ofMillis(500))
                    .method(MethodConfig.builder("hello").timeout(Duration.ofMillis(200)).build()).build()).toString();
            List<String> lines = table.lines().map(l -> l.replaceAll(" +", " ").trim()).toList();
            assertEquals("option value set at", lines.get(0), table);
            assertTrue(lines.contains("timeout 500 ms code"), table);
            assertTrue(lines.contains("retries 2 default, unless the providers' URLs give one"),
                    "not made yet, its providers may give the value its calls take: " + table);
            assertTrue(lines.contains("forks 2 default"), "an option only the reference sets: " + table);
            assertTrue(lines.contains("timeout [hello] 200 ms method hello"), table);
            assertFalse(table.contains("threads"), "a provider's option, not a reference's: " + table);
        }
    }

    @Test
    void anInvocationShowsAttachmentKeysNotValues() throws Exception {
        Invocation call = new Invocation(UserService.class.getName(), "1.0", "", UserService.class.getMethod("hello",
                String.class), new Object[] {"secret argument"}, Map.of("token", "s3cr3t"), Deadline.none(), false,
                Runnable::run);
        String printed = call.toString();
        assertTrue(printed.contains(".hello(String)") && printed.contains("attachments=[token]"), printed);
        assertFalse(printed.contains("s3cr3t") || printed.contains("secret argument"), printed);
    }
}
