package io.ferry.rpc.config;

import io.ferry.rpc.Filter;
import io.ferry.rpc.GenericException;
import io.ferry.rpc.GenericService;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcReference;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.fixtures.FerryFixture;
import io.ferry.rpc.config.fixtures.User;
import io.ferry.rpc.config.fixtures.UserNotFoundException;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.config.option.Options;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A Ferry generic reference calling a Ferry provider over real sockets on 127.0.0.1. */
class GenericCallTest {
    private static final String USERS = UserService.class.getName();
    private static final String[] LONG = {"long"};
    private static final String[] STRING = {"java.lang.String"};
    private static final String[] OBJECT = {"java.lang.Object"};

    @RegisterExtension
    final FerryFixture files = new FerryFixture();

    private final UserServiceImpl impl = new UserServiceImpl();
    /** What the provider's filter saw: the real method and its realized arguments. */
    private final ConcurrentLinkedQueue<Invocation> served = new ConcurrentLinkedQueue<>();
    private Ferry provider;
    private Ferry consumer;
    private String url;

    @BeforeEach
    void start() {
        provider = Ferry.builder().application(ApplicationConfig.of("generic-provider"))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).threads(8).build()).build();
        Filter seen = (invocation, next) -> {
            served.add(invocation);
            return next.invoke(invocation);
        };
        int port = provider.export(ServiceConfig.builder(UserService.class, impl).filter(seen).build());
        url = "dubbo://127.0.0.1:" + port;
        consumer = Ferry.builder().application(ApplicationConfig.of("generic-consumer")).build();
    }

    @AfterEach
    void stop() {
        impl.release.countDown();
        consumer.close();
        provider.close();
    }

    private GenericService generic() {
        return consumer.reference(ReferenceConfig.generic(USERS).url(url).retries(0).build());
    }

    @Test
    void stringsAndPrimitivesByTheirTypeNames() {
        GenericService users = generic();
        assertEquals("hello ann", users.$invoke("hello", STRING, new Object[] {"ann"}));
        assertEquals(7, users.$invoke("add", new String[] {"int", "int"}, new Object[] {3, 4}));
        assertEquals(10L, users.$invoke("twice", LONG, new Object[] {5})); // an int where a long is declared
        assertEquals(true, users.$invoke("isEven", new String[] {"int"}, new Object[] {2}));
        assertEquals(null, users.$invoke("nothing", new String[0], new Object[0]));
    }

    @Test
    @SuppressWarnings("unchecked")
    void pojosComeBackAsMapsNamingTheirClassAndCollectionsOfThem() {
        GenericService users = generic();
        Map<String, Object> user = (Map<String, Object>) users.$invoke("getUser", LONG, new Object[] {3L});
        assertEquals(User.class.getName(), user.get("class"));
        assertEquals(3L, user.get("id"));
        assertEquals("user-3", user.get("name"));
        assertEquals(UserServiceImpl.CREATED, user.get("created"));
        assertEquals(List.of("a", "b3"), user.get("tags"));
        assertEquals(Map.of("class", "io.ferry.rpc.config.fixtures.Address", "city", "Lisbon", "zip", 1003),
                user.get("address"));

        List<Map<String, Object>> list = (List<Map<String, Object>>) users.$invoke("listUsers",
                new String[] {"int"}, new Object[] {15});
        assertEquals(15, list.size());
        assertEquals("user-14", list.get(14).get("name"));
    }

    @Test
    void aMapArgumentBecomesTheClassItNamesOnTheProvider() {
        GenericService users = generic();
        Map<String, Object> user = new HashMap<>();
        user.put("class", User.class.getName());
        user.put("id", 9L);
        user.put("name", "nine");
        user.put("address", Map.of("city", "Porto", "zip", 4000));
        assertEquals(User.class.getName(), users.$invoke("describe", OBJECT, new Object[] {user}));
        User made = (User) served.stream().filter(i -> i.method().getName().equals("describe")).findFirst()
                .orElseThrow().arguments()[0];
        assertEquals("nine", made.getName());
        assertEquals("Porto", made.getAddress().city());
    }

    @Test
    void aClassTheServiceDoesNotAllowIsRefusedNotRun() {
        GenericService users = generic();
        Map<String, Object> gadget = Map.of("class", "java.lang.ProcessBuilder", "command", List.of("true"));
        RpcException e = assertThrows(RpcException.class,
                () -> users.$invoke("describe", OBJECT, new Object[] {gadget}));
        assertEquals(RpcStatus.BAD_REQUEST, e.status());
        assertTrue(e.isNotExecuted());
        assertTrue(e.getMessage().contains("class not allowed for deserialization: java.lang.ProcessBuilder"),
                e.getMessage());
        assertTrue(served.isEmpty(), "nothing of the service ran");
    }

    @Test
    void exceptionsArriveAsGenericExceptionNamingTheirClassAsDubbosProvidersSendThem() {
        GenericService users = generic();
        GenericException e = assertThrows(GenericException.class,
                () -> users.$invoke("getUser", LONG, new Object[] {-5L}));
        assertEquals(UserNotFoundException.class.getName(), e.getExceptionClass());
        assertEquals("no user -5", e.getExceptionMessage());
        assertEquals(UserNotFoundException.class.getName() + ": no user -5", e.getMessage());

        e = assertThrows(GenericException.class,
                () -> users.$invoke("big", new String[] {"int"}, new Object[] {-1}));
        assertEquals("java.lang.IllegalArgumentException", e.getExceptionClass());
        assertEquals("count is negative: -1", e.getExceptionMessage());

        // an undeclared exception of a class the caller may not know: sanitized first, as for any caller
        e = assertThrows(GenericException.class, () -> users.$invoke("crash", STRING, new Object[] {"c"}));
        assertEquals("java.lang.RuntimeException", e.getExceptionClass());
        assertTrue(e.getExceptionMessage().contains("InternalCrash"), e.getExceptionMessage());

    }

    @Test
    void aMissingMethodIsRefusedNotRun() {
        GenericService users = generic();
        RpcException e = assertThrows(RpcException.class,
                () -> users.$invoke("notThere", STRING, new Object[] {"x"}));
        assertEquals(RpcStatus.METHOD_NOT_FOUND, e.status());
        assertTrue(e.isNotExecuted());
        assertTrue(e.getMessage().contains("No such method notThere in class interface " + USERS), e.getMessage());

        e = assertThrows(RpcException.class, () -> users.$invoke("hello", LONG, new Object[] {1L}));
        assertEquals(RpcStatus.METHOD_NOT_FOUND, e.status());
        assertTrue(e.getMessage().contains("no overload with these parameter types"), e.getMessage());

        e = assertThrows(RpcException.class, () -> users.$invoke("hello", STRING, new Object[] {"a", "b"}));
        assertEquals(RpcStatus.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("UserService.hello: 2 arguments (expected: 1)"), e.getMessage());
    }

    @Test
    void invokeAsyncReturnsAFutureOfAnyMethod() throws Exception {
        GenericService users = generic();
        CompletableFuture<Object> async = users.$invokeAsync("helloAsync", STRING, new Object[] {"a"});
        assertEquals("async hello a", async.get(5, TimeUnit.SECONDS));
        assertEquals("hello b", users.$invokeAsync("hello", STRING, new Object[] {"b"}).get(5, TimeUnit.SECONDS));
        ExecutionException failed = assertThrows(ExecutionException.class,
                () -> users.$invokeAsync("getUser", LONG, new Object[] {-1L}).get(5, TimeUnit.SECONDS));
        assertInstanceOf(GenericException.class, failed.getCause());
    }

    @Test
    void theCallHasTheReferencesDeadlineAndItsFilters() throws Exception {
        ConcurrentLinkedQueue<Invocation> sent = new ConcurrentLinkedQueue<>();
        GenericService users = consumer.reference(ReferenceConfig.generic(USERS).url(url)
                .timeout(Duration.ofMillis(300)).filter((invocation, next) -> {
                    sent.add(invocation);
                    return next.invoke(invocation);
                }).build());
        RpcException e = assertThrows(RpcException.class, () -> users.$invoke("block", STRING, new Object[] {"t"}));
        assertEquals(RpcStatus.TIMEOUT, e.status());
        Invocation invocation = sent.peek();
        assertEquals("$invoke", invocation.method().getName());
        assertEquals(USERS, invocation.service());
        assertEquals("true", invocation.attachments().get("generic"));
        assertTrue(impl.blockedEntered.await(5, TimeUnit.SECONDS));
        assertEquals("block", served.peek().method().getName());
    }

    @Test
    void aCallWithoutTheGenericAttachmentIsStillGenericAsInDubbo() {
        // a Dubbo provider reads a $invoke without the attachment as generic=true: so does Ferry
        GenericService users = consumer.reference(ReferenceConfig.generic(USERS).url(url)
                .filter((invocation, next) -> {
                    Map<String, Object> attachments = new HashMap<>(invocation.attachments());
                    attachments.remove("generic");
                    return next.invoke(invocation.withAttachments(attachments));
                }).build());
        assertEquals("user-2", ((Map<?, ?>) users.$invoke("getUser", LONG, new Object[] {2L})).get("name"));

        GenericService bean = consumer.reference(ReferenceConfig.generic(USERS).url(url)
                .filter((invocation, next) -> {
                    Map<String, Object> attachments = new HashMap<>(invocation.attachments());
                    attachments.put("generic", "nativejava");
                    return next.invoke(invocation.withAttachments(attachments));
                }).build());
        RpcException e = assertThrows(RpcException.class,
                () -> bean.$invoke("getUser", LONG, new Object[] {2L}));
        assertEquals(RpcStatus.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("generic=nativejava: not supported by Ferry"), e.getMessage());
    }

    @Test
    @SuppressWarnings("unchecked")
    void rawReturnSendsTheResultAsItIsAndAClassTheCallerLacksIsReadAsAMap() {
        GenericService raw = consumer.reference(ReferenceConfig.generic(USERS).url(url)
                .filter((invocation, next) -> {
                    Map<String, Object> attachments = new HashMap<>(invocation.attachments());
                    attachments.put("generic", "raw.return");
                    return next.invoke(invocation.withAttachments(attachments));
                }).build());
        // the provider writes a User; a generic caller does not allow the class, so reads its fields as a map
        Map<String, Object> user = (Map<String, Object>) raw.$invoke("getUser", LONG, new Object[] {5L});
        assertEquals(User.class.getName(), user.get("class"));
        assertEquals("user-5", user.get("name"));
        assertEquals(Map.of("class", "io.ferry.rpc.config.fixtures.Address", "city", "Lisbon", "zip", 1005),
                user.get("address"));
    }

    @Test
    void theInterfaceNeedNotBeOnTheClassPath() {
        GenericService missing = consumer.reference(ReferenceConfig.generic("com.acme.NotHere").url(url).build());
        RpcException e = assertThrows(RpcException.class,
                () -> missing.$invoke("hello", STRING, new Object[] {"x"}));
        assertEquals(RpcStatus.SERVICE_NOT_FOUND, e.status());
        assertTrue(missing.toString().contains("com.acme.NotHere"), missing.toString());
    }

    /** A class whose field the annotation bootstrap fills with a generic reference. */
    static final class Gateway {
        @RpcReference(interfaceName = "io.ferry.rpc.config.fixtures.UserService", timeoutMillis = 3000)
        GenericService users;
    }

    static final class Unnamed {
        @RpcReference
        GenericService users;
    }

    @Test
    void anRpcReferenceFieldOfGenericServiceNamesItsInterface() {
        Gateway gateway = new Gateway();
        try (Ferry annotated = Ferry.builder().application(ApplicationConfig.of("generic-annotated")).build()) {
            annotated.inject(gateway, url);
            assertEquals("hello y", gateway.users.$invoke("hello", STRING, new Object[] {"y"}));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> annotated.inject(new Unnamed(), url));
            assertTrue(e.getMessage().endsWith("(expected: interfaceName, the service a GenericService field calls)"),
                    e.getMessage());
        }
    }

    @Test
    void aGenericReferenceIsNamedByAJavaNameAndGenericIsNotSetOnAPlainOne() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ReferenceConfig.generic("not a name"));
        assertEquals("interface: 'not a name' (expected: a fully qualified interface name)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> ReferenceConfig.builder(UserService.class).set(Options.GENERIC, true).build());
        assertTrue(e.getMessage().startsWith("generic: true for " + USERS + " (expected: false, or unset;"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ReferenceConfig.generic(USERS)
                .method(MethodConfig.builder("getUser").timeout(Duration.ofSeconds(1)).build()).build());
        assertEquals("method: getUser (expected: a method of io.ferry.rpc.GenericService)", e.getMessage());
        assertTrue(ReferenceConfig.generic(USERS).build().isGeneric());
        assertEquals(USERS, ReferenceConfig.generic(USERS).build().interfaceName());
    }

    @Test
    void xmlAndPropertiesDeclareAGenericReferenceWithGenericTrue() throws Exception {
        Path xml = files.file("consumer.xml", """
                <ferry:config xmlns:ferry="http://ferry.io/schema/ferry">
                  <ferry:application name="generic-xml"/>
                  <ferry:reference id="users" interface="%s" generic="true" url="%s" timeout="3000"/>
                </ferry:config>
                """.formatted(USERS, url));
        try (Ferry fromXml = Ferry.fromXml(xml)) {
            GenericService users = fromXml.reference("users", GenericService.class);
            assertEquals("hello x", users.$invoke("hello", STRING, new Object[] {"x"}));
            assertEquals(true, fromXml.settingsOf("users").get(Options.GENERIC));
            assertTrue(fromXml.settingsOf("users").setting(Options.GENERIC, null).where().startsWith("consumer.xml:3"),
                    fromXml.settingsOf("users").setting(Options.GENERIC, null).where());
        }
        Path properties = files.file("consumer.properties",
                "ferry.application.name = generic-properties",
                "ferry.reference.users.interface = com.acme.NotOnThisClassPath",
                "ferry.reference.users.generic = true",
                "ferry.reference.users.url = " + url);
        try (Ferry fromProperties = Ferry.fromProperties(properties)) {
            GenericService users = fromProperties.reference("users", GenericService.class);
            assertEquals(true, fromProperties.settingsOf("users").get(Options.GENERIC));
            RpcException e = assertThrows(RpcException.class,
                    () -> users.$invoke("hello", STRING, new Object[] {"x"}));
            assertEquals(RpcStatus.SERVICE_NOT_FOUND, e.status());
        }
    }
}
