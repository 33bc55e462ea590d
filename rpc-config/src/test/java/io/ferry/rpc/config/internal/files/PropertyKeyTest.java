package io.ferry.rpc.config.internal.files;

import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.option.Scope;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** ferry.properties keys against the option table: each scope, and a suggestion for a key that names nothing. */
class PropertyKeyTest {
    private static final String WHERE = "ferry.properties:7";

    private static void refused(String message, String key) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> PropertyKey.parse(key, WHERE))
                .getMessage());
    }

    @Test
    void everyScopeHasItsShape() {
        assertEquals(new PropertyKey(Scope.CONSUMER, "", "", Options.TIMEOUT, "timeout"),
                PropertyKey.parse("ferry.consumer.timeout", WHERE));
        assertEquals(new PropertyKey(Scope.PROTOCOL, "", "", Options.PORT, "port"),
                PropertyKey.parse("ferry.protocol.port", WHERE));
        assertEquals(new PropertyKey(Scope.APPLICATION, "", "", Options.APPLICATION_NAME, "name"),
                PropertyKey.parse("ferry.application.name", WHERE));
        assertEquals(new PropertyKey(Scope.REFERENCE, "greeter", "", Options.CONNECTIONS, "connections"),
                PropertyKey.parse("ferry.reference.greeter.connections", WHERE));
        assertEquals(new PropertyKey(Scope.METHOD, "greeter", "hello", Options.TIMEOUT, "timeout"),
                PropertyKey.parse("ferry.reference.greeter.method.hello.timeout", WHERE));
        assertEquals(new PropertyKey(Scope.SERVICE, "com.acme.Greeter", "", Options.THREADS, "threads"),
                PropertyKey.parse("ferry.service.com.acme.Greeter.threads", WHERE));
        assertEquals(new PropertyKey(Scope.METHOD, "com.acme.Greeter", "hello", Options.TIMEOUT, "timeout"),
                PropertyKey.parse("ferry.service.com.acme.Greeter.method.hello.timeout", WHERE));
        PropertyKey implementation = PropertyKey.parse("ferry.service.com.acme.Greeter.class", WHERE);
        assertNull(implementation.option());
        assertEquals("class", implementation.attribute());
        assertEquals("interface", PropertyKey.parse("ferry.reference.greeter.interface", WHERE).attribute());
    }

    @Test
    void aKeyThatNamesNoOptionIsRefusedWithTheNearestOne() {
        refused("ferry.properties:7: ferry.consumer.timout: no such option for a consumer (did you mean "
                + "ferry.consumer.timeout?)", "ferry.consumer.timout");
        refused("ferry.properties:7: ferry.reference.greeter.conections: no such option for a reference (did you "
                + "mean ferry.reference.greeter.connections?)", "ferry.reference.greeter.conections");
        refused("ferry.properties:7: ferry.consumr.timeout: unknown key (did you mean ferry.consumer.timeout?)",
                "ferry.consumr.timeout");
        refused("ferry.properties:7: ferry.protocol.timeout: not an option of a protocol (it is of provider, "
                + "consumer, service, reference, method, registry)", "ferry.protocol.timeout");
        refused("ferry.properties:7: ferry.reference.a.b.timeout: expected ferry.reference.<id>.<option>",
                "ferry.reference.a.b.timeout");
    }

    @Test
    void distanceCountsEdits() {
        assertEquals(1, DidYouMean.distance("timout", "timeout"));
        assertEquals(0, DidYouMean.distance("port", "port"));
        assertEquals(3, DidYouMean.distance("abc", ""));
    }
}
