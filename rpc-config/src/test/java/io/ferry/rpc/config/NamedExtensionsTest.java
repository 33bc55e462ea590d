package io.ferry.rpc.config;

import io.ferry.rpc.cluster.Cluster;
import io.ferry.rpc.cluster.LoadBalancer;
import io.ferry.rpc.config.extension.Extensions;
import io.ferry.rpc.config.extension.FilterProvider;
import io.ferry.rpc.config.fixtures.FerryFixture;
import io.ferry.rpc.config.fixtures.extensions.AuditAgainFilterProvider;
import io.ferry.rpc.config.fixtures.extensions.Audited;
import io.ferry.rpc.config.fixtures.extensions.Recorded;
import io.ferry.rpc.config.internal.files.Sources;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Balancers, clusters and filters found by name through ServiceLoader (the test jar registers its own beside
 * Ferry's, in src/test/resources/META-INF/services), named from properties, XML and builders, or given as objects.
 */
class NamedExtensionsTest {
    private static final String AUDITED = Audited.class.getName();
    private static final String ALL_BALANCERS = "adaptive, random, roundrobin, leastactive, consistenthash, "
            + "shortestresponse, Counting";

    @RegisterExtension
    final FerryFixture ferries = new FerryFixture();
    private Ferry provider;

    @BeforeEach
    void startProvider() throws Exception {
        Recorded.EVENTS.clear();
        provider = ferries.track(Ferry.fromProperties(ferries.file("provider.properties",
                "ferry.protocol.host = 127.0.0.1",
                "ferry.protocol.port = 0",
                "ferry.service." + AUDITED + ".class = " + Audited.Impl.class.getName(),
                "ferry.service." + AUDITED + ".filter = audit")));
        Recorded.EVENTS.clear();
    }

    private String url() {
        return "dubbo://127.0.0.1:" + provider.port();
    }

    private Audited fromProperties(String... referenceLines) throws Exception {
        List<String> lines = new ArrayList<>(List.of("ferry.reference.a.interface = " + AUDITED,
                "ferry.reference.a.url = " + url()));
        lines.addAll(List.of(referenceLines));
        Ferry consumer = ferries.track(Ferry.fromProperties(ferries.file("consumer.properties",
                lines.toArray(String[]::new))));
        return consumer.reference("a", Audited.class);
    }

    @Test
    void aBalancerClusterAndFiltersNamedInPropertiesRunOnBothSides() throws Exception {
        Audited audited = fromProperties("ferry.reference.a.loadbalance = counting",
                "ferry.reference.a.cluster = once", "ferry.reference.a.filter = audit");
        Recorded.EVENTS.clear();

        assertEquals("x", audited.echo("x"));

        assertEquals(List.of("consumer mark.echo", "consumer audit Audited.echo", "once echo",
                "picked 127.0.0.1:" + provider.port(), "provider audit Audited.echo"), Recorded.EVENTS,
                "the default filter first, then the named one; the cluster, its balancer; then the provider's");
    }

    @Test
    void xmlNamesThemAsDubboDoes() throws Exception {
        Path xml = ferries.file("consumer.xml", "<ferry:config xmlns:ferry=\"http://ferry.io/schema/ferry\">",
                "  <ferry:reference id=\"a\" interface=\"" + AUDITED + "\" url=\"" + url() + "\""
                        + " loadbalance=\"counting\" filter=\"audit,-mark\"/>",
                "</ferry:config>");
        Audited audited = ferries.track(Ferry.fromXml(xml)).reference("a", Audited.class);
        assertEquals(List.of("balancer made for Audited"), Recorded.EVENTS);
        Recorded.EVENTS.clear();

        audited.echo("x");

        assertEquals(List.of("consumer audit Audited.echo", "picked 127.0.0.1:" + provider.port(),
                "provider audit Audited.echo"), Recorded.EVENTS, "-mark drops the default filter");
    }

    @Test
    void aListPlacesTheDefaultFiltersOrDropsThem() throws Exception {
        fromProperties("ferry.reference.a.filter = audit,default").echo("x");
        assertEquals(List.of("consumer audit Audited.echo", "consumer mark.echo"), consumerEvents(),
                "'default' stands where the default filters run");

        fromProperties("ferry.reference.a.filter = audit,-default").echo("x");
        assertEquals(List.of("consumer audit Audited.echo"), consumerEvents());

        fromProperties("ferry.consumer.filter = caller-only", "ferry.reference.a.filter = audit").echo("x");
        assertEquals(List.of("consumer mark.echo", "consumer caller-only.echo", "consumer audit Audited.echo"),
                consumerEvents(), "a reference's list follows its consumer's");
    }

    private List<String> consumerEvents() {
        List<String> seen = Recorded.EVENTS.stream().filter(e -> e.startsWith("consumer")).toList();
        Recorded.EVENTS.clear();
        return seen;
    }

    @Test
    void buildersTakeANameOrAnObject() throws Exception {
        Ferry consumer = ferries.track(Ferry.builder().shutdownHook(false).build());
        consumer.reference(ReferenceConfig.builder(Audited.class).url(url()).loadBalance("COUNTING")
                .filter("audit").build()).echo("x");
        assertEquals(List.of("balancer made for Audited", "consumer mark.echo", "consumer audit Audited.echo",
                "picked 127.0.0.1:" + provider.port(), "provider audit Audited.echo"), Recorded.EVENTS);
        Recorded.EVENTS.clear();

        LoadBalancer first = (candidates, invocation) -> {
            Recorded.EVENTS.add("own balancer");
            return candidates.get(0);
        };
        Cluster direct = (directory, balancer) -> invocation -> {
            Recorded.EVENTS.add("own cluster");
            return balancer.select(directory.endpoints(), invocation).invoke(invocation);
        };
        consumer.reference(ReferenceConfig.builder(Audited.class).url(url()).loadBalancer(first).cluster(direct)
                .build()).echo("x");
        assertEquals(List.of("consumer mark.echo", "own cluster", "own balancer", "provider audit Audited.echo"),
                Recorded.EVENTS);
    }

    @Test
    void anUnknownNameFailsAtStartNamingWhereAndTheNamesThereAre() throws Exception {
        Path xml = ferries.file("bad.xml", "<ferry:config xmlns:ferry=\"http://ferry.io/schema/ferry\">",
                "  <ferry:consumer loadbalance=\"fastest\"/>", "</ferry:config>");
        assertEquals("bad.xml:2: <consumer>: loadbalance: 'fastest' (expected: one of " + ALL_BALANCERS + ")",
                assertThrows(IllegalArgumentException.class, () -> Ferry.fromXml(xml)).getMessage());

        Path properties = ferries.file("bad.properties", "ferry.reference.a.interface = " + AUDITED,
                "ferry.reference.a.url = " + url(), "ferry.reference.a.filter = audit, nosuch");
        assertEquals("bad.properties:3: filter: 'nosuch' (expected: one of activelimit, executelimit, audit, mark, "
                + "caller-only)", assertThrows(IllegalArgumentException.class,
                () -> Ferry.fromProperties(properties)).getMessage());

        Sources system = Sources.of(Map.of("ferry.consumer.cluster", "sometimes"), null);
        assertEquals("-Dferry.consumer.cluster: cluster: 'sometimes' (expected: one of failover, failfast, failsafe, "
                + "failback, forking, broadcast, once)", assertThrows(IllegalArgumentException.class,
                () -> Ferry.builder().shutdownHook(false).sources(system).build()).getMessage());

        Ferry consumer = ferries.track(Ferry.builder().shutdownHook(false).build());
        assertEquals("loadbalance: 'fastest' (expected: one of " + ALL_BALANCERS + ")",
                assertThrows(IllegalArgumentException.class, () -> consumer.reference(ReferenceConfig
                        .builder(Audited.class).url(url()).loadBalance("fastest").build())).getMessage());
    }

    @Test
    void aFilterNamedOnASideItDoesNotRunOnIsRefused() throws Exception {
        Path properties = ferries.file("wrong-side.properties", "ferry.protocol.host = 127.0.0.1",
                "ferry.protocol.port = 0",
                "ferry.service." + AUDITED + ".class = " + Audited.Impl.class.getName(),
                "ferry.service." + AUDITED + ".filter = caller-only");
        assertEquals("wrong-side.properties:4: filter: 'caller-only' (expected: a filter that runs on providers; "
                + "io.ferry.rpc.config.fixtures.extensions.CallerOnlyFilterProvider makes none there)",
                assertThrows(IllegalArgumentException.class, () -> Ferry.fromProperties(properties)).getMessage());
    }

    @Test
    void twoExtensionsOfOneKindWithOneNameAreRefused() throws Exception {
        Path services = ferries.dir().resolve("clash/META-INF/services");
        Files.createDirectories(services);
        Files.writeString(services.resolve(FilterProvider.class.getName()),
                AuditAgainFilterProvider.class.getName() + "\n");
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        URL[] jar = {ferries.dir().resolve("clash").toUri().toURL()};
        try (URLClassLoader clash = new URLClassLoader(jar, before)) {
            Thread.currentThread().setContextClassLoader(clash);
            assertEquals("FilterProvider 'AUDIT' is registered twice: by "
                    + "io.ferry.rpc.config.fixtures.extensions.AuditFilterProvider and by "
                    + AuditAgainFilterProvider.class.getName(), assertThrows(IllegalStateException.class,
                    () -> Extensions.names(FilterProvider.class)).getMessage());
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
    }
}
