package io.ferry.rpc.config;

import io.ferry.rpc.config.fixtures.DemoService;
import io.ferry.rpc.config.fixtures.DemoServiceImpl;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import io.ferry.rpc.config.internal.files.FileBootstrap;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Resolved;
import io.ferry.rpc.remoting.ThreadPoolKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Providers and consumers described by {@code ferry.xml} alone, and every way such a file can be wrong. */
class XmlBootstrapTest {
    private static final String HEAD = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<ferry:config xmlns:ferry=\"http://ferry.io/schema/ferry\">\n";
    private static final String TAIL = "</ferry:config>\n";
    private static final ClassLoader NO_DEFAULTS = new URLClassLoader(new URL[0], null);

    @RegisterExtension
    final ZooKeeperFixture zk = new ZooKeeperFixture();

    @TempDir
    Path dir;

    private Path xml(String name, String body) throws Exception {
        Path path = dir.resolve(name);
        Files.writeString(path, HEAD + body + TAIL);
        return path;
    }

    private static FileBootstrap.Loaded load(Path file) {
        return FileBootstrap.fromXml(file, Map.of());
    }

    /** A bootstrap of what {@code file} describes, with {@code overrides} as -D and no ferry.properties. */
    private Ferry start(Path file, Map<String, String> overrides) {
        return zk.track(Ferry.fromLoaded(load(file), Sources.of(overrides, NO_DEFAULTS)));
    }

    @Test
    void aProviderAndAConsumerDescribedByXmlMakeARealCall() throws Exception {
        Path provider = xml("provider.xml", """
                  <ferry:application name="users-provider"/>
                  <ferry:protocol name="dubbo" host="127.0.0.1" port="0" threads="8"/>
                  <ferry:service interface="%s" class="%s">
                    <ferry:method name="hello" timeout="2s"/>
                  </ferry:service>
                """.formatted(UserService.class.getName(), UserServiceImpl.class.getName()));
        try (Ferry serving = Ferry.fromXml(provider)) {
            Path consumer = xml("consumer.xml", """
                      <ferry:application name="users-consumer"/>
                      <ferry:consumer retries="0"/>
                      <ferry:reference id="users" interface="%s" url="dubbo://127.0.0.1:%d" timeout="3000">
                        <ferry:method name="record" return="false"/>
                      </ferry:reference>
                    """.formatted(UserService.class.getName(), serving.port()));
            try (Ferry calling = Ferry.fromXml(consumer)) {
                assertEquals("hello ann", calling.reference("users", UserService.class).hello("ann"));
            }
        }
    }

    @Test
    void aDubboFilePortedByItsNamespaceAndPrefixRunsARealCallThroughTheRegistry() throws Exception {
        // the files keep Dubbo's addresses; the test points them at its own ZooKeeper and a free port, as -D would,
        // and has the reference (check="false" in the file, as Dubbo's samples have it) wait for the provider
        Map<String, String> overrides = Map.of("ferry.registry.address", "zookeeper://127.0.0.1:" + zk.server().port(),
                "ferry.registry.file", "none", "ferry.protocol.host", "127.0.0.1", "ferry.protocol.port", "0");
        Map<String, String> consumerOverrides = new HashMap<>(overrides);
        consumerOverrides.put("ferry.reference.demoService.check", "true");
        Path provider = fixture("dubbo-demo-provider.xml");
        Path consumer = fixture("dubbo-demo-consumer.xml");
        Ferry serving = start(provider, overrides);
        assertEquals(100, serving.protocol().serverOptions().threads(), "<provider threads> goes to the protocol");
        assertEquals(Duration.ofSeconds(2), serving.settingsOf(load(provider).services().get(0))
                .get(Options.TIMEOUT, DemoService.class.getMethod("sayHello", String.class)), "the method's own");
        Ferry calling = start(consumer, consumerOverrides);
        DemoService demo = calling.reference("demoService", DemoService.class);
        assertEquals("Hello world", demo.sayHello("world"));
        assertTrue(serving.describe().startsWith("serving on port"));
    }

    private Path fixture(String name) throws Exception {
        Path path = dir.resolve(name);
        try (InputStream in = getClass().getResourceAsStream("xml/" + name)) {
            Files.copy(in, path);
        }
        return path;
    }

    @Test
    void providerDefaultsFillWhatTheProtocolAndEachServiceLeaveUnset() throws Exception {
        FileBootstrap.Loaded loaded = load(xml("defaults.xml", """
                  <ferry:protocol threads="4" host="127.0.0.1" port="0"/>
                  <ferry:provider timeout="2500" threads="50" threadpool="cached" version="2.0" executes="7"/>
                  <ferry:service interface="%s" class="%s" timeout="900"/>
                  <ferry:service interface="%s" class="%s"/>
                """.formatted(UserService.class.getName(), UserServiceImpl.class.getName(),
                DemoService.class.getName(), DemoServiceImpl.class.getName())));
        try (Ferry ferry = Ferry.fromLoaded(loaded, Sources.of(Map.of("ferry.provider.timeout", "3000"), null))) {
            Method hello = UserService.class.getMethod("hello", String.class);
            Method sayHello = DemoService.class.getMethod("sayHello", String.class);
            assertEquals(4, ferry.protocol().serverOptions().threads(), "the protocol's own value wins");
            assertEquals(ThreadPoolKind.CACHED, ferry.protocol().serverOptions().pool().kind());
            Resolved users = ferry.settingsOf(loaded.services().get(0));
            assertEquals(Duration.ofMillis(900), users.get(Options.TIMEOUT, hello), "the service's own value wins");
            Resolved demo = ferry.settingsOf(loaded.services().get(1));
            assertEquals(Duration.ofMillis(3000), demo.get(Options.TIMEOUT, sayHello), "-D beats the file's provider");
            assertEquals("2.0", demo.get(Options.VERSION));
            assertEquals(7, demo.get(Options.EXECUTES, sayHello));
        }
    }

    @Test
    void theClassPathsFerryPropertiesFillsGapsAndSystemPropertiesWin() throws Exception {
        Path classPath = Files.createDirectories(dir.resolve("classes"));
        Files.writeString(classPath.resolve("ferry.properties"), String.join("\n",
                "ferry.consumer.timeout = 700", "ferry.consumer.retries = 5", "ferry.application.name = from-file"));
        Path file = xml("consumer.xml", """
                  <ferry:application name="from-xml"/>
                  <ferry:consumer retries="1" lazy="true"/>
                """);
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classPath.toUri().toURL()}, null);
             Ferry ferry = Ferry.fromLoaded(load(file), Sources.of(Map.of("ferry.consumer.lazy", "false"), loader))) {
            assertEquals(Duration.ofMillis(700), ferry.consumer().timeout(), "ferry.properties fills a gap");
            assertEquals(1, ferry.consumer().retries(), "XML beats ferry.properties");
            assertEquals("from-xml", ferry.application().name());
            assertEquals(false, ferry.consumer().clientOptions().lazy(), "-D beats XML");
        }
    }

    @Test
    void aFerryXmlOnTheClassPathDescribesTheWholeBootstrap() throws Exception {
        Path classes = Files.createDirectories(dir.resolve("classpath"));
        Files.writeString(classes.resolve("ferry.xml"), HEAD + """
                  <ferry:application name="from-class-path"/>
                  <ferry:protocol host="127.0.0.1" port="0"/>
                  <ferry:service interface="%s" class="%s"/>
                """.formatted(DemoService.class.getName(), DemoServiceImpl.class.getName()) + TAIL);
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, before)) {
            Thread.currentThread().setContextClassLoader(loader);
            try (Ferry ferry = Ferry.load()) {
                assertEquals("from-class-path", ferry.application().name());
                assertTrue(ferry.describe().startsWith("serving on port"), ferry.describe());
            }
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
        assertEquals("no ferry.xml or ferry.properties on the class path", assertThrows(IllegalStateException.class,
                () -> {
                    Thread.currentThread().setContextClassLoader(NO_DEFAULTS);
                    try {
                        Ferry.load();
                    } finally {
                        Thread.currentThread().setContextClassLoader(before);
                    }
                }).getMessage());
    }

    @Test
    void aServiceMayNameAnImplementationGivenInCode() throws Exception {
        Path file = xml("bean.xml", """
                  <ferry:protocol host="127.0.0.1" port="0"/>
                  <ferry:service interface="%s" ref="demo"/>
                """.formatted(DemoService.class.getName()));
        DemoService given = name -> "hi " + name;
        FileBootstrap.Loaded loaded = FileBootstrap.fromXml(file, Map.of("demo", given));
        assertEquals(given, loaded.services().get(0).implementation());
    }

    @Test
    void systemPropertiesChangeAFilesRegistryOptionByOption() throws Exception {
        Path file = xml("registry.xml", """
                  <ferry:registry address="zookeeper://127.0.0.1:21181" timeout="1000" file="none"/>
                """);
        try (Ferry ferry = Ferry.fromLoaded(load(file), Sources.of(Map.of("ferry.registry.address",
                "zookeeper://127.0.0.1:21182", "ferry.registry.session", "4000"), NO_DEFAULTS))) {
            RegistryConfig registry = ferry.registryConfig();
            assertEquals("127.0.0.1:21182", registry.options().connectString(), "-D's address");
            assertEquals(Duration.ofSeconds(1), registry.options().connectionTimeout(), "the file's timeout");
            assertEquals(Duration.ofSeconds(4), registry.options().sessionTimeout(), "-D's session");
            assertEquals(null, registry.options().cacheFile(), "the file's file=\"none\"");
        }
    }

    @Test
    void anAnnotatedServiceTimeoutBeatsTheProvidersDefault() throws Exception {
        Path file = xml("annotated.xml", """
                  <ferry:protocol host="127.0.0.1" port="0"/>
                  <ferry:provider timeout="700"/>
                  <ferry:service interface="%s" class="%s"/>
                """.formatted(io.ferry.rpc.config.annotated.Inventory.class.getName(),
                io.ferry.rpc.config.annotated.InventoryImpl.class.getName()));
        FileBootstrap.Loaded loaded = load(file);
        try (Ferry ferry = Ferry.fromLoaded(loaded, Sources.none())) {
            assertEquals(Duration.ofSeconds(3), ferry.settingsOf(loaded.services().get(0)).get(Options.TIMEOUT,
                    io.ferry.rpc.config.annotated.Inventory.class.getMethod("stock", String.class)),
                    "@RpcService(timeoutMillis = 3000) is the service's own");
        }
    }

    @Test
    void oneFileExportsTwoVersionsOfAnInterfaceAndCallsEachByItsVersion() throws Exception {
        String who = io.ferry.rpc.config.fixtures.WhoAmI.class.getName();
        Path file = xml("versions.xml", """
                  <ferry:application name="versions"/>
                  <ferry:protocol name="dubbo" host="127.0.0.1" port="0"/>
                  <ferry:service interface="%1$s" ref="one" version="1.0"/>
                  <ferry:service interface="%1$s" ref="two" version="2.0" timeout="1234"/>
                """.formatted(who));
        java.util.Map<String, Object> beans = Map.of("one", new io.ferry.rpc.config.fixtures.Named("one"),
                "two", new io.ferry.rpc.config.fixtures.Named("two"));
        try (Ferry serving = Ferry.fromXml(file, beans);
             Ferry calling = Ferry.builder().shutdownHook(false).build()) {
            for (String version : List.of("1.0", "2.0")) {
                io.ferry.rpc.config.fixtures.WhoAmI reference = calling.reference(ReferenceConfig.builder(
                        io.ferry.rpc.config.fixtures.WhoAmI.class).url("dubbo://127.0.0.1:" + serving.port())
                        .version(version).build());
                assertEquals(version.equals("1.0") ? "one" : "two", reference.who(), "version " + version);
            }
        }
        assertEquals("-Dferry.service." + who + ".timeout: the file exports " + who + " 2 times (version 1.0, "
                        + "version 2.0), and ferry.service." + who + ".* does not say which (expected: the setting on "
                        + "the file's <service> of that version)",
                assertThrows(IllegalArgumentException.class, () -> Ferry.fromLoaded(FileBootstrap.fromXml(file,
                        beans), Sources.of(Map.of("ferry.service." + who + ".timeout", "5"), NO_DEFAULTS)))
                        .getMessage());
        String demo = io.ferry.rpc.config.fixtures.DemoService.class.getName();
        refused("bad.xml:4: <service interface=\"" + demo + "\">: declared twice (first at bad.xml:3: <service "
                + "interface=\"" + demo + "\">; one service per interface, version and group in a file)", """
                  <ferry:service interface="%1$s" class="%2$s" version="1.0"/>
                  <ferry:service interface="%1$s" class="%2$s" version=" 1.0 "/>
                """.formatted(demo, io.ferry.rpc.config.fixtures.DemoServiceImpl.class.getName()));
    }

    @Test
    void systemPropertiesNamingWhatTheFileLacksAreRefused() throws Exception {
        Path file = xml("consumer.xml", "<ferry:consumer lazy=\"true\"/>\n");
        assertEquals("-Dferry.reference.nosuch.retries: no reference 'nosuch' in the file (expected: one of [])",
                assertThrows(IllegalArgumentException.class, () -> Ferry.fromLoaded(load(file),
                        Sources.of(Map.of("ferry.reference.nosuch.retries", "0"), NO_DEFAULTS))).getMessage());
    }

    @Test
    void valuesReadAlikeInXmlAndProperties() throws Exception {
        // the schema takes what the option table reads: any case, a unit, a plus sign
        FileBootstrap.Loaded loaded = load(xml("case.xml",
                "<ferry:consumer loadbalance=\"Random\" check=\"FALSE\" timeout=\"2S\" retries=\"+1\"/>\n"));
        assertEquals("random", loaded.consumer().loadBalance());
        assertEquals(false, loaded.consumer().check());
        assertEquals(Duration.ofSeconds(2), loaded.consumer().timeout());
        assertEquals(1, loaded.consumer().retries());
    }

    private void refused(String expected, String body) throws Exception {
        Path file = xml("bad.xml", body);
        assertEquals(expected, assertThrows(IllegalArgumentException.class, () -> load(file))
                .getMessage());
    }

    @Test
    void everyMistakeNamesTheFileLineElementAndAttribute() throws Exception {
        String users = UserService.class.getName();
        refused("bad.xml:3: <reference id=\"greeter\">: timeout: -5ms (expected: > 0)",
                "<ferry:reference id=\"greeter\" interface=\"" + users + "\" timeout=\"-5\"/>\n");
        refused("bad.xml:3: <consumer> timout: no such attribute (did you mean timeout?)",
                "<ferry:consumer timout=\"100\"/>\n");
        refused("bad.xml:3: <consumer>: loadbalance: 'fastest' (expected: one of adaptive, random, roundrobin, "
                + "leastactive, consistenthash, shortestresponse, Counting)",
                "<ferry:consumer loadbalance=\"fastest\"/>\n");
        refused("bad.xml:3: <consumer>: retries: 'many' (expected: a whole number)",
                "<ferry:consumer retries=\"many\"/>\n");
        refused("bad.xml:3: <consumer> local: not supported by Ferry: Dubbo's deprecated name for stub: write "
                + "stub=\"com.acme.XxxLocal\" (local=\"true\" meant the interface's name followed by Local)",
                "<ferry:consumer local=\"true\"/>\n");
        refused("bad.xml:3: <service interface=\"" + users + "\"> mock: not an attribute of <service> (it is of "
                + "<consumer>, <reference>, <method>)", "<ferry:service interface=\"" + users + "\" class=\""
                + UserServiceImpl.class.getName() + "\" mock=\"true\"/>\n");
        refused("bad.xml:3: <registry> lazy: not an attribute of <registry> (it is of <consumer>, <reference>)",
                "<ferry:registry address=\"zookeeper://127.0.0.1:2181\" lazy=\"true\"/>\n");
        refused("bad.xml:3: <reference id=\"greeter\">: interface is missing (expected: interface=\"...\")",
                "<ferry:reference id=\"greeter\"/>\n");
        refused("bad.xml:3: <reference id=\"greeter\">: class com.acme.Missing (expected: a class on the class path)",
                "<ferry:reference id=\"greeter\" interface=\"com.acme.Missing\"/>\n");
        refused("bad.xml:3: <service interface=\"" + users + "\">: class com.acme.Missing (expected: a class on the "
                + "class path)", "<ferry:service interface=\"" + users + "\" class=\"com.acme.Missing\"/>\n");
        refused("bad.xml:3: <service interface=\"" + users + "\">: ref nobody: no such bean (expected: one of [], "
                + "declared in the file or given to the bootstrap)",
                "<ferry:service interface=\"" + users + "\" ref=\"nobody\"/>\n");
        refused("bad.xml:3: <servise>: no such element (did you mean <service>?)", "<ferry:servise/>\n");
        refused("bad.xml:4: <consumer>: a second <consumer> (the first is at line 3; Ferry takes one per file)",
                "<ferry:consumer/>\n<ferry:consumer/>\n");
        refused("bad.xml:3: <protocol> name=\"rest\" (expected: dubbo, the only one Ferry speaks)",
                "<ferry:protocol name=\"rest\"/>\n");
        refused("bad.xml:3: <reference id=\"greeter\">: timeout: '9999999999999999h' (expected: a smaller number)",
                "<ferry:reference id=\"greeter\" interface=\"" + users + "\" timeout=\"9999999999999999h\"/>\n");
        refused("bad.xml:3: <reference id=\"greeter\">: timeout: 9223372036854775807ms (expected: at most 26687 days)",
                "<ferry:reference id=\"greeter\" interface=\"" + users + "\" timeout=\"9223372036854775807\"/>\n");
        refused("bad.xml:3: <reference id=\"greeter.v1\">: id: 'greeter.v1' (expected: letters, digits, '-' or '_')",
                "<ferry:reference id=\"greeter.v1\" interface=\"" + users + "\"/>\n");
        refused("bad.xml:3: <service> version=\"${greeter.version}\": a placeholder "
                + "(expected: a value; Ferry does not resolve placeholders: set the value with -Dferry.... or a "
                + "ferry.properties instead)", "<ferry:service interface=\"" + users + "\" class=\""
                + UserServiceImpl.class.getName() + "\" version=\"${greeter.version}\"/>\n");
        refused("bad.xml:5: <argument> inside <method>: not supported by Ferry: no callback arguments: "
                + "return a CompletableFuture instead",
                "<ferry:reference id=\"g\" interface=\"" + users + "\">\n<ferry:method name=\"hello\">\n"
                        + "<ferry:argument index=\"0\" callback=\"true\"/></ferry:method></ferry:reference>\n");
    }

    @Test
    void dubboAttributesThatAskForWhatFerryDoesAreTakenWithNoEffect() throws Exception {
        String users = UserService.class.getName();
        FileBootstrap.Loaded loaded = load(xml("dubbo.xml", """
                  <ferry:application id="shop" name="shop" register-consumer="true" logger="slf4j" qos-check="true"/>
                  <ferry:registry id="zk1" address="zookeeper://127.0.0.1:2181" group="dubbo" client="curator"
                      register="true" dynamic="true" default="true" subscribe="true" use-as-config-center="false"/>
                  <ferry:protocol id="dubbo1" name="dubbo" port="-1" server="netty4" codec="dubbo" charset="utf-8"
                      transporter="netty" exchanger="header" keepalive="true" dispather="direct"/>
                  <ferry:provider delay="-1" register="true" dynamic="true" deprecated="false" export="true"
                      isdefault="true" protocol="dubbo1" registry="zk1" application="shop"/>
                  <ferry:consumer injvm="false" scope="remote" sticky="false" retries="-1" client="netty"
                      registry="zk1"/>
                  <ferry:service id="usersService" interface="%s" class="%s" delay="0" validation="false"
                      cache="false" protocol="dubbo1" registry="zk1">
                    <ferry:method name="hello" sent="false" return="true"/>
                  </ferry:service>
                  <ferry:reference id="users" interface="%s" protocol="dubbo" registry="zk1" init="true"
                      reconnect="true"/>
                """.formatted(users, UserServiceImpl.class.getName(), users)));
        assertEquals(0, loaded.protocol().settings().get(Options.PORT), "Dubbo's -1, a free port: Ferry's 0");
        assertEquals(0, loaded.consumer().retries(), "Dubbo's failover calls once for retries=-1");
        assertEquals(true, loaded.protocol().settings().get(Options.KEEP_ALIVE), "Dubbo's spelling, keepalive");
        assertEquals(io.ferry.rpc.remoting.Dispatcher.DIRECT, loaded.protocol().settings().get(Options.DISPATCHER),
                "Dubbo's old spelling, dispather");
        assertEquals("zookeeper://127.0.0.1:2181", loaded.registry().address());
        assertEquals(1, loaded.services().size());
        assertEquals(1, loaded.references().size());
    }

    @Test
    void dubbosNoRegistryIsNone() throws Exception {
        FileBootstrap.Loaded loaded = load(xml("direct.xml", """
                  <ferry:registry address="N/A" check="false"/>
                  <ferry:reference id="users" interface="%s" url="dubbo://127.0.0.1:20880"/>
                """.formatted(UserService.class.getName())));
        assertEquals(null, loaded.registry(), "address=\"N/A\": no registry, as Dubbo's");
    }

    @Test
    void otherValuesOfThoseAttributesAreRefusedWithTheReasonAndTheValuesTaken() throws Exception {
        String users = UserService.class.getName();
        String service = "<ferry:service interface=\"" + users + "\" class=\"" + UserServiceImpl.class.getName()
                + "\"";
        refused("bad.xml:3: <provider> delay=\"5000\": not supported by Ferry: a service is registered once "
                + "export() has bound its port, and consumers call it only after a readiness ping; to export later, "
                + "call Ferry.export then: leave it out (taken, with no effect: -1 or 0)",
                "<ferry:provider delay=\"5000\"/>\n");
        refused("bad.xml:3: <protocol> server=\"mina\": not supported by Ferry: Netty 4 is the only transport "
                + "(Dubbo's netty and netty4): leave it out (taken, with no effect: netty or netty4)",
                "<ferry:protocol server=\"mina\"/>\n");
        refused("bad.xml:4: <service interface=\"" + users + "\"> registry=\"zk2\": not supported by Ferry: one "
                + "registry per file, which every service and reference uses (a reference with url=\"...\" none): "
                + "leave it out (taken, with no effect: the id of the file's <registry>, zk1)",
                "<ferry:registry id=\"zk1\" address=\"zookeeper://127.0.0.1:2181\"/>\n" + service
                        + " registry=\"zk2\"/>\n");
        refused("bad.xml:4: <method name=\"hello\"> of <service interface=\"" + users + "\"> return=\"false\": a "
                + "consumer's setting (whether a call waits for its answer is the caller's choice): write it on the "
                + "<reference>'s <method>", service + ">\n<ferry:method name=\"hello\" return=\"false\"/>"
                + "</ferry:service>\n");
        refused("bad.xml:3: <registry> group=\"shop\": not supported by Ferry: the ZooKeeper root is /dubbo, "
                + "Dubbo's default group; another root is set in code (RegistryOptions), and a separate set of "
                + "providers by group on the services (taken, with no effect: dubbo)",
                "<ferry:registry address=\"zookeeper://127.0.0.1:2181\" group=\"shop\"/>\n");
    }

    @Test
    void dubbosBuiltInFiltersAreNamedAsDubbosWithFerrysList() throws Exception {
        Path file = xml("bad.xml", "<ferry:provider filter=\"-exception,-monitor\"/>\n");
        String message = assertThrows(IllegalArgumentException.class, () -> load(file)).getMessage();
        assertTrue(message.startsWith("bad.xml:3: ") && message.contains("filter: '-exception': Dubbo's built-in "
                + "filter exception, not Ferry's (Ferry carries a provider's exceptions to the caller itself (see "
                + "Errors); leave it out): Ferry's filters are ["), message);
    }

    @Test
    void dubbosAttributesReadAsRefusalsWithAReasonNeverAsTypos() throws Exception {
        String users = UserService.class.getName();
        Path file = xml("bad.xml", """
                  <ferry:application name="shop" shutwait="5000" dump-directory="/tmp" startup-probe="x"/>
                  <ferry:registry address="zookeeper://127.0.0.1:2181" zone="a" extra-keys="x" client="zkclient"/>
                  <ferry:protocol status="server" buffer="8192" threadname="x" contextpath="x" prompt="x"/>
                  <ferry:provider executor="pool" wait="1000" document="x" onconnect="x" layer="x" parameters="x"/>
                  <ferry:consumer threads="20" shareconnections="2" provided-by="x" router="x"/>
                  <ferry:reference id="users" interface="%s">
                    <ferry:method name="hello" reliable="true" stat="1"/>
                  </ferry:reference>
                """.formatted(users));
        String message = assertThrows(IllegalArgumentException.class, () -> load(file)).getMessage();
        assertEquals(23, message.lines().count(), message);
        message.lines().forEach(line -> {
            assertTrue(line.contains(": not supported by Ferry: "), line);
            assertTrue(!line.contains("did you mean") && !line.contains("no such attribute"), line);
        });
        assertTrue(message.contains("bad.xml:7: <consumer> threads: not supported by Ferry: a consumer has no "
                + "pool to size: a synchronous call's answer is decoded on the calling thread"), message);
        assertTrue(message.contains("bad.xml:6: <provider> executor: not supported by Ferry: no executor bean: a "
                + "service's own pool is set by threads, threadpool and queues"), message);
    }

    @Test
    void everyMistakeOfAFileIsReportedAtOnceInFileOrder() throws Exception {
        Path file = xml("bad.xml", """
                <ferry:application name="shop" environment="prod"/>
                <ferry:consumer timout="100" retries="many"/>
                <ferry:consumer>some text</ferry:consumer>
                <ferry:reference id="a" interface="com.acme.Missing" timeout="-5"/>
                <ferry:servise/>
                """);
        assertEquals(String.join("\n",
                "bad.xml:3: <application>: environment: 'prod' (expected: one of develop, test, product, Dubbo's)",
                "bad.xml:4: <consumer> timout: no such attribute (did you mean timeout?)",
                "bad.xml:4: <consumer>: retries: 'many' (expected: a whole number)",
                "bad.xml:5: <consumer>: a second <consumer> (the first is at line 4; Ferry takes one per file)",
                "bad.xml:5: cvc-complex-type.2.1: Element 'ferry:consumer' must have no character or element "
                        + "information item [children], because the type's content type is empty.",
                "bad.xml:6: <reference id=\"a\">: timeout: -5ms (expected: > 0)",
                "bad.xml:6: <reference id=\"a\">: class com.acme.Missing (expected: a class on the class path)",
                "bad.xml:7: <servise>: no such element (did you mean <service>?)"),
                assertThrows(IllegalArgumentException.class, () -> load(file)).getMessage(),
                "the schema's own findings on retries and timeout, and on <servise>, are not said twice");
    }

    @Test
    void anAnnotationPackageExportsItsRpcExportClasses() throws Exception {
        FileBootstrap.Loaded loaded = load(xml("scan.xml", """
                  <ferry:protocol host="127.0.0.1" port="0"/>
                  <ferry:annotation package="io.ferry.rpc.config.annotated"/>
                """));
        assertEquals(1, loaded.services().size());
        assertEquals(io.ferry.rpc.config.annotated.Inventory.class, loaded.services().get(0).interfaceType());
        assertEquals(io.ferry.rpc.config.annotated.InventoryImpl.class,
                loaded.services().get(0).implementation().getClass());
        try (Ferry ferry = Ferry.fromLoaded(loaded, Sources.none())) {
            assertTrue(ferry.describe().startsWith("serving on port"), ferry.describe());
        }
    }

    @Test
    void anAnnotationPackageThatExportsNothingOrTwiceIsRefused() throws Exception {
        refused("bad.xml:3: <annotation> package: 'com.acme.nothing': no such package on the class path "
                + "(expected: a package holding the @RpcExport implementations to export)",
                "<ferry:annotation package=\"com.acme.nothing\"/>\n");
        refused("bad.xml:3: <annotation> package: 'org.junit.jupiter.api': no class in it is annotated @RpcExport "
                + "(expected: a package holding the @RpcExport implementations to export)",
                "<ferry:annotation package=\"org.junit.jupiter.api\"/>\n"); // read from a jar
        String inventory = io.ferry.rpc.config.annotated.Inventory.class.getName();
        refused("bad.xml:3: <annotation> package: io.ferry.rpc.config.annotated.InventoryImpl, annotated @RpcExport, "
                + "exports " + inventory + ", which is declared at bad.xml:4: <service interface=\"" + inventory
                + "\"> too (expected: one of them; one service per interface, version and group)",
                "<ferry:annotation package=\"io.ferry.rpc.config.annotated\"/>\n<ferry:service interface=\""
                        + inventory + "\" class=\"io.ferry.rpc.config.annotated.InventoryImpl\"/>\n");
        refused("bad.xml:3: <annotation> package: 'com..acme' (expected: a Java package name, such as "
                + "com.acme.service)", "<ferry:annotation package=\"com..acme\"/>\n");
    }

    @Test
    void aBeanNoServiceNamesStillNeedsItsClass() throws Exception {
        Path file = dir.resolve("beans.xml");
        Files.writeString(file, "<beans xmlns=\"http://www.springframework.org/schema/beans\">\n"
                + "<bean id=\"unused\" class=\"com.acme.Missing\"/>\n</beans>\n");
        assertEquals("beans.xml:2: <bean>: class com.acme.Missing (expected: a class on the class path)",
                assertThrows(IllegalArgumentException.class, () -> load(file)).getMessage());
    }

    @Test
    void malformedXmlIsRefusedWithItsLine() throws Exception {
        Path file = dir.resolve("broken.xml");
        Files.writeString(file, HEAD + "<ferry:consumer timeout=\"1000\">\n" + TAIL);
        String message = assertThrows(IllegalArgumentException.class, () -> load(file)).getMessage();
        assertTrue(message.startsWith("broken.xml:4: "), message);
        assertTrue(message.contains("ferry:consumer"), message);
    }

    @Test
    void theSchemaCatchesWhatFerrysOwnChecksLeave() throws Exception {
        Path file = dir.resolve("text.xml");
        Files.writeString(file, HEAD + "<ferry:consumer>some text</ferry:consumer>\n" + TAIL);
        String message = assertThrows(IllegalArgumentException.class, () -> load(file)).getMessage();
        assertTrue(message.startsWith("text.xml:3: cvc-complex-type"), message);
    }

    @Test
    void externalEntitiesAndDtdsAreRefusedUnread() throws Exception {
        Path secret = Files.writeString(dir.resolve("secret.txt"), "zookeeper://10.0.0.1:2181");
        Path file = dir.resolve("xxe.xml");
        Files.writeString(file, "<?xml version=\"1.0\"?>\n<!DOCTYPE config [<!ENTITY secret SYSTEM \""
                + secret.toUri() + "\">]>\n<ferry:config xmlns:ferry=\"http://ferry.io/schema/ferry\">\n"
                + "<ferry:registry address=\"&secret;\"/>\n" + TAIL);
        assertEquals("xxe.xml:2: a DOCTYPE (expected: none; DTDs and external entities are refused)",
                assertThrows(IllegalArgumentException.class, () -> load(file)).getMessage());
    }

    @Test
    void aRootOfAnotherKindIsRefused() throws Exception {
        Path file = dir.resolve("dubbo.xml");
        Files.writeString(file, "<dubbo:config xmlns:dubbo=\"http://dubbo.apache.org/schema/dubbo\"/>\n");
        assertEquals("dubbo.xml:1: <dubbo:config> of http://dubbo.apache.org/schema/dubbo (expected: <config> of "
                + "http://ferry.io/schema/ferry, or Spring's <beans>)",
                assertThrows(IllegalArgumentException.class, () -> load(file)).getMessage());
    }
}
