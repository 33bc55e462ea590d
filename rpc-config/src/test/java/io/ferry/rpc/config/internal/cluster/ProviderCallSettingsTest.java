package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Resolved;
import io.ferry.rpc.config.option.Settings;
import io.ferry.rpc.option.Scope;
import io.ferry.rpc.registry.ProviderInstance;
import io.ferry.rpc.registry.ServiceUrl;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Dubbo's provider-side settings as a consumer takes them: from the URLs, made one, below its own settings. */
class ProviderCallSettingsTest {
    /** The service the providers offer: two methods. */
    interface Greeter {
        String sayHi(String name);

        String sayBye(String name);
    }

    private static ProviderInstance provider(String host, String query) {
        return ProviderInstance.from(ServiceUrl.parse("dubbo://" + host + ":20880/demo.Greeter?interface="
                + "demo.Greeter&methods=sayBye,sayHi&" + query));
    }

    private static ProviderCallSettings of(ProviderInstance... providers) {
        ProviderCallSettings settings = new ProviderCallSettings();
        settings.update(List.of(providers));
        return settings;
    }

    private static Method method(String name) throws NoSuchMethodException {
        return Greeter.class.getMethod(name, String.class);
    }

    @Test
    void aProvidersUrlCarriesItsServicesAndItsMethodsSettings() {
        ProviderInstance p = provider("10.0.0.1", "timeout=2000&retries=0&loadbalance=roundrobin&actives=5"
                + "&cluster=failfast&sayHi.timeout=300&weight=50&connect.timeout=9&nosuch.timeout=7");
        assertEquals(Map.of("timeout", "2000", "retries", "0", "loadbalance", "roundrobin", "actives", "5",
                "cluster", "failfast", "sayHi.timeout", "300"), p.callSettings(),
                "a key of a method it does not list (connect.timeout) is not a method's");
        assertEquals(50, p.weight());
    }

    @Test
    void aMethodsValueComesBeforeItsServices() {
        ProviderCallSettings settings = of(provider("10.0.0.1", "timeout=2000&sayHi.timeout=300"));
        assertEquals(Duration.ofMillis(300), settings.setting(Options.TIMEOUT, "sayHi").value());
        assertEquals(Duration.ofMillis(2000), settings.setting(Options.TIMEOUT, "sayBye").value());
        assertEquals(Duration.ofMillis(2000), settings.setting(Options.TIMEOUT, null).value());
        assertEquals("provider URL of 10.0.0.1:20880", settings.setting(Options.TIMEOUT, "sayHi").where());
        assertNull(settings.setting(Options.RETRIES, "sayHi"), "set by no provider");
        assertNull(settings.setting(Options.CLUSTER, null), "a consumer keeps its own cluster, as Dubbo's does");
    }

    @Test
    void providersThatDifferAreMadeOne() {
        ProviderCallSettings settings = of(
                provider("10.0.0.1", "timeout=500&retries=1&loadbalance=random"),
                provider("10.0.0.2", "timeout=2000&retries=0&loadbalance=roundrobin"),
                provider("10.0.0.3", "sayHi.timeout=3000&loadbalance=roundrobin"),
                provider("10.0.0.4", ""));
        assertEquals(Duration.ofMillis(2000), settings.setting(Options.TIMEOUT, null).value(),
                "the largest: no provider's calls cut shorter than it asks");
        assertEquals(Duration.ofMillis(3000), settings.setting(Options.TIMEOUT, "sayHi").value(),
                "a provider's method's value against the others' services'");
        assertEquals(1, settings.setting(Options.RETRIES, "sayBye").value());
        assertEquals("roundrobin", settings.setting(Options.LOAD_BALANCE, null).value(), "the one most give");
        assertEquals("provider URLs of 10.0.0.1:20880, 10.0.0.2:20880 (the largest)",
                settings.setting(Options.TIMEOUT, null).where());
        assertEquals("random", of(provider("10.0.0.1", "loadbalance=roundrobin"),
                provider("10.0.0.2", "loadbalance=random")).setting(Options.LOAD_BALANCE, null).value(),
                "a tie: the first alphabetically");
    }

    @Test
    void aValueThatIsNotOneIsIgnored() {
        ProviderCallSettings settings = of(provider("10.0.0.1", "timeout=-5&retries=many"),
                provider("10.0.0.2", "timeout=800"));
        assertEquals(Duration.ofMillis(800), settings.setting(Options.TIMEOUT, null).value());
        assertNull(settings.setting(Options.RETRIES, null));
    }

    @Test
    void dubbosOrderTheMethodLevelFirstThenTheWholeAtEachLevelTheConsumersFirst() throws Exception {
        ProviderCallSettings providers = of(provider("10.0.0.1", "timeout=2000&sayHi.timeout=300&retries=0"));
        Settings reference = new Settings().put(Options.TIMEOUT, Duration.ofMillis(700), "ferry.xml:4");
        Settings sayBye = new Settings().put(Options.RETRIES, 4, "ferry.xml:5");
        Resolved consumerSetsTimeout = new Resolved(Scope.REFERENCE, Map.of("sayBye", sayBye), m -> null,
                reference, new Settings()).withProviders(providers);
        assertEquals(Duration.ofMillis(300), consumerSetsTimeout.get(Options.TIMEOUT, method("sayHi")),
                "the provider's for the method over the reference's for the whole");
        assertEquals(Duration.ofMillis(700), consumerSetsTimeout.get(Options.TIMEOUT, method("sayBye")),
                "the reference's for the whole over the provider's for the whole");
        Resolved consumerSetsSayHi = new Resolved(Scope.REFERENCE, Map.of("sayHi", new Settings().put(Options.TIMEOUT,
                Duration.ofMillis(900), "ferry.xml:6")), m -> null, reference, new Settings()).withProviders(providers);
        assertEquals(Duration.ofMillis(900), consumerSetsSayHi.get(Options.TIMEOUT, method("sayHi")),
                "the consumer's for the method over the provider's for the method");
        assertEquals(4, consumerSetsTimeout.get(Options.RETRIES, method("sayBye")));
        assertEquals(0, consumerSetsTimeout.get(Options.RETRIES, method("sayHi")));
        assertEquals("provider URL of 10.0.0.1:20880",
                consumerSetsTimeout.setting(Options.RETRIES, method("sayHi")).where());

        Resolved consumerSetsNothing = new Resolved(Scope.REFERENCE, Map.of(), m -> null, new Settings(),
                new Settings()).withProviders(providers);
        assertEquals(Duration.ofMillis(300), consumerSetsNothing.get(Options.TIMEOUT, method("sayHi")));
        assertEquals(Duration.ofMillis(2000), consumerSetsNothing.get(Options.TIMEOUT, method("sayBye")));
        assertEquals(2, new Resolved(Scope.REFERENCE, Map.of(), m -> null, new Settings(), new Settings())
                .withProviders(of()).get(Options.RETRIES, method("sayHi")), "no provider says: the default");
        assertTrue(consumerSetsNothing.toString().contains("timeout [sayHi]"), consumerSetsNothing.toString());
        assertTrue(consumerSetsNothing.rows().contains(new Resolved.Row("timeout", null, "2000 ms",
                "provider URL of 10.0.0.1:20880")), consumerSetsNothing.rows().toString());

        Settings consumerDefaults = new Settings().put(Options.RETRIES, 1, "-Dferry.consumer.retries");
        assertEquals(1, new Resolved(Scope.REFERENCE, Map.of(), m -> null, new Settings(), consumerDefaults)
                .withProviders(providers).get(Options.RETRIES, method("sayHi")),
                "the consumer's defaults are its own settings too");
    }
}
