package io.ferry.rpc.spring;

import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.fixtures.DemoService;
import io.ferry.rpc.config.fixtures.WhoAmI;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.support.GenericXmlApplicationContext;
import org.springframework.core.NestedRuntimeException;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.io.ByteArrayResource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Dubbo's Spring XML files, with Ferry's namespace and prefix, in real Spring contexts over a real ZooKeeper. */
class SpringXmlTest {
    @RegisterExtension
    final ZooKeeperFixture zk = new ZooKeeperFixture();

    private GenericXmlApplicationContext context(String file, Map<String, Object> properties) {
        GenericXmlApplicationContext context = new GenericXmlApplicationContext();
        Map<String, Object> all = new HashMap<>(properties);
        all.put("zk.port", zk.server().port());
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", all));
        context.load("classpath:io/ferry/rpc/spring/" + file);
        return context;
    }

    @Test
    void aProviderFileExportsOnceTheContextHasRefreshedAndACloseUnregistersIt() throws Exception {
        try (GenericXmlApplicationContext provider = context("provider.xml", Map.of("provider.timeout", "3000"))) {
            provider.refresh();
            Ferry ferry = provider.getBean(Ferry.class);
            assertTrue(ferry.port() > 0, "the service is exported once the context has refreshed");
            assertEquals(1, zk.registeredProviders(DemoService.class).size());
            assertSame(provider.getBean("demoService"), provider.getBean("demoService"));

            try (GenericXmlApplicationContext consumer = context("consumer.xml", Map.of("consumer.check", "true"))) {
                consumer.refresh();
                assertEquals("Hello spring", consumer.getBean(DemoService.class).sayHello("spring"),
                        "the reference is a bean of its interface's type");
                assertEquals("Hello bean", consumer.getBean(Greeter.class).greet("bean"),
                        "other beans are given it as any collaborator");
            }
            provider.close();
            assertTrue(zk.registeredProviders(DemoService.class).isEmpty(), "closing the context unregistered it");
            assertFalse(provider.isRunning());
        }
    }

    @Test
    void closingTheContextUnregistersFirstThenLetsTheCallInFlightFinish() throws Exception {
        GenericXmlApplicationContext provider = context("held-provider.xml", Map.of());
        provider.refresh();
        HeldDemoService held = provider.getBean(HeldDemoService.class);
        int port = provider.getBean(Ferry.class).port();
        try (Ferry consumer = Ferry.builder().shutdownHook(false).build()) {
            DemoService demo = consumer.reference(ReferenceConfig.builder(DemoService.class)
                    .url("dubbo://127.0.0.1:" + port).timeout(Duration.ofSeconds(20)).build());
            CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> demo.sayHello("in flight"));
            assertTrue(held.entered.await(10, TimeUnit.SECONDS));

            CompletableFuture<Void> closing = CompletableFuture.runAsync(provider::close);
            Awaitility.await("unregistered while the call is held").atMost(Duration.ofSeconds(10))
                    .until(() -> zk.registeredProviders(DemoService.class).isEmpty());
            assertFalse(call.isDone(), "the call is still running");
            assertFalse(closing.isDone(), "the close waits for it");

            held.release.countDown();
            assertEquals("Hello in flight", call.get(10, TimeUnit.SECONDS), "the call in flight finished");
            closing.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void theFilesPlaceholdersAreTheContextsAndTheirValuesGoThroughTheOptionTable() {
        try (GenericXmlApplicationContext provider = context("provider.xml", Map.of("provider.timeout", "soon"))) {
            NestedRuntimeException e = assertThrows(NestedRuntimeException.class, provider::refresh);
            assertTrue(e.getMostSpecificCause().getMessage().startsWith("provider.xml:16: <provider>: timeout: 'soon' (expected: milliseconds"),
                    e.getMostSpecificCause().getMessage());
        }
    }

    @Test
    void anAttributeFerryDoesNotTakeIsNamedWithTheReasonAndTheNearestName() {
        String file = SpringFiles.beans("""
                    <ferry:reference id="demo" interface="io.ferry.rpc.config.fixtures.DemoService" timout="5"/>
                """);
        try (GenericXmlApplicationContext context = new GenericXmlApplicationContext()) {
            context.load(new ByteArrayResource(file.getBytes(StandardCharsets.UTF_8), "typo.xml"));
            NestedRuntimeException e = assertThrows(NestedRuntimeException.class, context::refresh);
            assertTrue(e.getMostSpecificCause().getMessage().contains("timout: no such attribute (did you mean "
                    + "timeout?)"), e.getMostSpecificCause().getMessage());
        }
    }

    private GenericXmlApplicationContext inline(String name, String elements) {
        GenericXmlApplicationContext context = new GenericXmlApplicationContext();
        context.load(inlineFile(name, name, elements));
        return context;
    }

    /** A Spring XML file named {@code name}.xml of the application {@code application}, over the test's registry. */
    private ByteArrayResource inlineFile(String name, String application, String elements) {
        String file = SpringFiles.beans("""
                    <ferry:application name="%s"/>
                    <ferry:registry address="zookeeper://127.0.0.1:%d" file="none"/>
                    <ferry:protocol name="dubbo" host="127.0.0.1" port="0"/>
                %s
                """).formatted(application, zk.server().port(), elements);
        return new ByteArrayResource(file.getBytes(StandardCharsets.UTF_8), name + ".xml");
    }

    private static final String V1 = """
            <bean id="v1" class="io.ferry.rpc.config.fixtures.Named"><constructor-arg value="one"/></bean>
            <ferry:service interface="io.ferry.rpc.config.fixtures.WhoAmI" ref="v1" version="1.0"/>
            """;
    private static final String V2 = """
            <bean id="v2" class="io.ferry.rpc.config.fixtures.Named"><constructor-arg value="two"/></bean>
            <bean id="blue2" class="io.ferry.rpc.config.fixtures.Named"><constructor-arg value="blue"/></bean>
            <ferry:service interface="io.ferry.rpc.config.fixtures.WhoAmI" ref="v2" version="2.0"/>
            <ferry:service interface="io.ferry.rpc.config.fixtures.WhoAmI" ref="blue2" version="2.0" group="blue"/>
            """;
    private static final String REFERENCES = """
            <ferry:reference id="who1" interface="io.ferry.rpc.config.fixtures.WhoAmI" version="1.0"/>
            <ferry:reference id="who2" interface="io.ferry.rpc.config.fixtures.WhoAmI" version="2.0"/>
            <ferry:reference id="blue" interface="io.ferry.rpc.config.fixtures.WhoAmI" version="2.0" group="blue"/>
            """;

    private void callsEachVersion(GenericXmlApplicationContext context) throws Exception {
        context.refresh();
        assertEquals("one", context.getBean("who1", WhoAmI.class).who());
        assertEquals("two", context.getBean("who2", WhoAmI.class).who());
        assertEquals("blue", context.getBean("blue", WhoAmI.class).who());
        assertEquals(3, zk.registeredProviders(WhoAmI.class).size(), "three services registered");
    }

    @Test
    void oneFileExportsTwoVersionsAndAGroupOfOneInterfaceEachCalledByItsVersion() throws Exception {
        try (GenericXmlApplicationContext context = inline("versions", V1 + V2 + REFERENCES)) {
            callsEachVersion(context);
        }
    }

    @Test
    void twoFilesOfOneContextExportTwoVersionsOfOneInterface() throws Exception {
        try (GenericXmlApplicationContext context = new GenericXmlApplicationContext()) {
            context.load(inlineFile("v1", "versions", V1), inlineFile("v2", "versions", V2 + REFERENCES));
            callsEachVersion(context);
        }
    }

    @Test
    void theSameVersionTwiceIsStillRefused() {
        try (GenericXmlApplicationContext context = new GenericXmlApplicationContext()) {
            context.load(inlineFile("a", "versions", V1),
                    inlineFile("b", "versions", V1.replace("\"v1\"", "\"w1\"")));
            NestedRuntimeException e = assertThrows(NestedRuntimeException.class, context::refresh);
            assertTrue(e.getMostSpecificCause().getMessage().contains("declared twice (first at "),
                    e.getMostSpecificCause().getMessage());
        }
    }

    @Test
    void aContextThatExportsAServiceAndReferencesItWithCheckStartsAndCallsIt() {
        // Dubbo's check="true" is the default: the reference, made while beans are, is checked once the context's
        // services are exported, as Dubbo 3's deployer exports, then refers
        try (GenericXmlApplicationContext context = inline("self", """
                <bean id="demoImpl" class="io.ferry.rpc.config.fixtures.DemoServiceImpl"/>
                <ferry:service interface="io.ferry.rpc.config.fixtures.DemoService" ref="demoImpl"/>
                <ferry:reference id="demo" interface="io.ferry.rpc.config.fixtures.DemoService" check="true"/>
                <bean id="greeter" class="io.ferry.rpc.spring.Greeter">
                    <constructor-arg ref="demo"/>
                </bean>
                """)) {
            context.refresh();
            assertEquals("Hello self", context.getBean(Greeter.class).greet("self"));
            assertTrue(context.getBean(Ferry.class).status().toString().contains("DemoService"));
        }
    }

    @Test
    void aReferenceWithCheckAndNoProviderFailsTheStartNamingEveryOneAndHowToTurnCheckOff() {
        try (GenericXmlApplicationContext context = inline("lonely", """
                <ferry:consumer connectTimeout="200"/>
                <ferry:reference id="demo" interface="io.ferry.rpc.config.fixtures.DemoService"/>
                <ferry:reference id="who" interface="io.ferry.rpc.config.fixtures.WhoAmI"/>
                <ferry:reference id="optional" interface="io.ferry.rpc.config.fixtures.UserService" check="false"/>
                <bean id="greeter" class="io.ferry.rpc.spring.Greeter">
                    <constructor-arg ref="demo"/>
                </bean>
                """)) {
            RuntimeException e = assertThrows(RuntimeException.class, context::refresh);
            String message = e instanceof NestedRuntimeException n ? n.getMostSpecificCause().getMessage()
                    : e.getMessage();
            assertTrue(message.startsWith("2 reference(s) without a provider: reference to "
                    + "io.ferry.rpc.config.fixtures.DemoService"), message);
            assertTrue(message.contains("reference to io.ferry.rpc.config.fixtures.WhoAmI"), message);
            assertFalse(message.contains("UserService"), "a reference without check is not checked: " + message);
            assertTrue(message.contains("check=\"false\" on its <reference>"), message);
        }
    }

    @Test
    void springsSchemaLeavesEveryMistakeToFerrysReaderWhichReportsThemAllAtOnceWithLines() {
        String file = SpringFiles.beans("""
                    <ferry:application name="typos"/>
                    <ferry:registry address="N/A" check="no"/>
                    <ferry:monitor protocol="registry"/>
                    <ferry:reference id="demo" interface="io.ferry.rpc.config.fixtures.DemoService" timout="5">
                        <ferry:method name="sayHello" return="nope"/>
                    </ferry:reference>
                    <bean id="demoService" class="io.ferry.rpc.config.fixtures.DemoServiceImpl"/>
                    <ferry:service interface="io.ferry.rpc.config.fixtures.DemoService" ref="demoServise">
                        <ferry:parameter key="a" value="b"/>
                    </ferry:service>
                    <ferry:config-center address="zookeeper://127.0.0.1:2181"/>
                """);
        try (GenericXmlApplicationContext context = new GenericXmlApplicationContext()) {
            context.load(named("typos.xml", file));
            NestedRuntimeException e = assertThrows(NestedRuntimeException.class, context::refresh);
            String message = ferrysError(e).getMessage();
            java.util.List<String> lines = message.lines().toList();
            assertEquals(7, lines.size(), message);
            assertEquals("typos.xml:8: <registry>: check: 'no' (expected: true or false)", lines.get(0));
            assertTrue(lines.get(1).startsWith("typos.xml:9: <monitor>: not supported by Ferry: no monitor center"),
                    message);
            assertEquals("typos.xml:10: <reference id=\"demo\"> timout: no such attribute (did you mean timeout?)",
                    lines.get(2));
            assertEquals("typos.xml:11: <method name=\"sayHello\"> of <reference id=\"demo\"> return=\"nope\" "
                    + "(expected: true or false)", lines.get(3));
            assertEquals("typos.xml:14: <service interface=\"io.ferry.rpc.config.fixtures.DemoService\">: ref "
                    + "demoServise: no such bean (did you mean demoService?)", lines.get(4));
            assertTrue(lines.get(5).startsWith("typos.xml:15: <parameter> inside <service>: not supported by Ferry"),
                    message);
            assertTrue(lines.get(6).startsWith("typos.xml:17: <config-center>: not supported by Ferry: no config "
                    + "center"), message);
            assertFalse(message.contains("cvc-"), "no word of the schema's: " + message);
        }
    }

    @Test
    void aWrongRefOffersTheApplicationsBeansNotFerrysOwn() {
        String file = SpringFiles.beans("""
                    <bean id="greeterImpl" class="io.ferry.rpc.config.fixtures.DemoServiceImpl"/>
                    <ferry:service interface="io.ferry.rpc.config.fixtures.DemoService" ref="nothingLikeIt"/>
                """);
        try (GenericXmlApplicationContext context = new GenericXmlApplicationContext()) {
            context.load(named("ref.xml", file));
            NestedRuntimeException e = assertThrows(NestedRuntimeException.class, context::refresh);
            assertEquals("ref.xml:8: <service interface=\"io.ferry.rpc.config.fixtures.DemoService\">: ref "
                    + "nothingLikeIt: no such bean (expected: one of the context's beans [greeterImpl])",
                    ferrysError(e).getMessage());
        }
    }

    /** Ferry's error in what the context threw (its cause is the first mistake: not the one to read). */
    private static Throwable ferrysError(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof IllegalArgumentException) {
                return t;
            }
        }
        return e;
    }

    private static ByteArrayResource named(String name, String file) {
        return new ByteArrayResource(file.getBytes(StandardCharsets.UTF_8), name) {
            @Override
            public String getFilename() {
                return name;
            }
        };
    }
}
