package io.ferry.rpc.remoting;

import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.Deadline;
import io.ferry.rpc.EchoService;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.remoting.internal.generic.GenericCalls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A provider fed crafted requests over real sockets: every bad request gets a clear answer, nothing reaches the
 * service that should not, and the provider keeps serving everyone else.
 */
class ProviderRobustnessTest {
    private static final String GREETER = Greeter.class.getName();

    /** A class no Greeter signature mentions. */
    public static class Smuggled implements Serializable {
        private static final long serialVersionUID = 1L;
        public String payload = "gadget";
    }

    /** Allowed, but loading it fails: an Error in the middle of decoding. */
    public static class Explosive implements Serializable {
        private static final long serialVersionUID = 1L;
        static final int FUSE = Integer.parseInt("boom");
        public int value;
    }

    /** How the peer writes an Explosive without initialising it: a class definition and one instance by hand. */
    private static byte[] explosiveInstance() {
        String name = Explosive.class.getName();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write('C');
        out.write(0x30 + (name.length() >> 8));
        out.write(name.length() & 0xff);
        out.writeBytes(name.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        out.write(0x91); // one field
        out.write(0x05);
        out.writeBytes("value".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        out.write(0x60); // an instance of class definition 0
        out.write(0x91); // value = 1
        return out.toByteArray();
    }

    private final AtomicInteger invocations = new AtomicInteger();
    private volatile Map<String, Object> lastAttachments;
    private Server server;
    @RegisterExtension
    final ClientExtension clients = new ClientExtension();

    @BeforeEach
    void start() {
        server = Server.start(ServerOptions.builder().host("127.0.0.1").port(0).threads(4).build());
        server.export(ServiceExport.of(Greeter.class, invocation -> {
            invocations.incrementAndGet();
            lastAttachments = invocation.attachments();
            Object[] args = invocation.arguments();
            return CompletableFuture.completedFuture(Result.of(switch (invocation.method().getName()) {
                case "hello" -> "hello " + args[0];
                case "describe" -> args[0] == null ? "null" : args[0].getClass().getName();
                default -> List.of(new Greeter.Item("a", 1));
            }));
        }));
    }

    private void restartWith(ClassAllowList allowList, Invoker invoker) {
        server.close();
        server = Server.start(ServerOptions.builder().host("127.0.0.1").port(0).build());
        server.export(new ServiceExport(Greeter.class, "", "", invoker, allowList, null, Map.of()));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private RawPeer.Answer send(byte[] body) throws Exception {
        try (RawPeer peer = new RawPeer(server.address())) {
            peer.sendRequest(77, body);
            RawPeer.Answer answer = peer.readAnswer();
            assertEquals(77, answer.id());
            return answer;
        }
    }

    private static byte[] describeWith(Object argument, Map<String, Object> attachments) throws Exception {
        return RawPeer.body(GREETER, "describe", "Ljava/lang/Object;", RawPeer.objects(argument, attachments));
    }

    /** A well-behaved call on a fresh connection: the provider still serves. */
    private void assertStillServing() throws Exception {
        byte[] hello = RawPeer.body(GREETER, "hello", "Ljava/lang/String;",
                RawPeer.objects("again", RawPeer.attachments()));
        RawPeer.Answer ok = send(hello);
        assertEquals(20, ok.status());
    }

    @Test
    void classOutsideTheAllowListIsRejectedByNameAndNeverReachesTheService() throws Exception {
        RawPeer.Answer answer = send(describeWith(new javax.swing.UIDefaults(), RawPeer.attachments()));
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.status());
        assertTrue(answer.message().contains("javax.swing.UIDefaults"), answer.message());
        assertEquals(0, invocations.get());
        assertStillServing();
    }

    @Test
    void disallowedClassNestedInACollectionIsRejected() throws Exception {
        Map<String, Object> nested = new HashMap<>();
        nested.put("inner", new ArrayList<>(List.of(new Smuggled())));
        RawPeer.Answer answer = send(describeWith(nested, RawPeer.attachments()));
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.status());
        assertTrue(answer.message().contains(Smuggled.class.getName()), answer.message());
        assertEquals(0, invocations.get());
    }

    @Test
    void disallowedClassInAttachmentsIsRejected() throws Exception {
        RawPeer.Answer answer = send(describeWith("fine", RawPeer.attachments("evil", new Smuggled())));
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.status());
        assertTrue(answer.message().contains(Smuggled.class.getName()), answer.message());
        assertEquals(0, invocations.get());
    }

    @Test
    void userAllowListLetsATrustedSubtypeThrough() throws Exception {
        restartWith(ClassAllowList.ofClasses(Smuggled.class), invocation -> CompletableFuture.completedFuture(
                Result.of(invocation.arguments()[0].getClass().getName())));
        RawPeer.Answer answer = send(describeWith(new Smuggled(), RawPeer.attachments()));
        assertEquals(20, answer.status());
    }

    @Test
    void tinyBodyClaimingAHugeArrayIsRejectedWithoutAllocatingIt() throws Exception {
        // 'V' typed fixed-length list of type "[int" claiming Integer.MAX_VALUE elements, in a dozen bytes
        byte[] claim = {0x56, 0x04, '[', 'i', 'n', 't', 'I', 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff};
        RawPeer.Answer answer = send(RawPeer.body(GREETER, "describe", "Ljava/lang/Object;", RawPeer.raw(claim)));
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.status());
        assertTrue(answer.message().contains("claims 2147483647 elements"), answer.message());
        // the same with an untyped fixed-length list ('X') and a class definition claiming a million fields
        byte[] untyped = {0x58, 'I', 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff};
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(),
                send(RawPeer.body(GREETER, "describe", "Ljava/lang/Object;", RawPeer.raw(untyped))).status());
        byte[] fields = {'C', 0x0e, 'j', 'a', 'v', 'a', '.', 'u', 't', 'i', 'l', '.', 'D', 'a', 't', 'e',
                'I', 0x00, 0x0f, 0x42, 0x40};
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(),
                send(RawPeer.body(GREETER, "describe", "Ljava/lang/Object;", RawPeer.raw(fields))).status());
        assertEquals(0, invocations.get());
        assertStillServing();
    }

    @Test
    void deepNestingIsRejectedAndTheProviderKeepsServing() throws Exception {
        byte[] deep = new byte[100_000];
        java.util.Arrays.fill(deep, (byte) 0x57); // 'W': an untyped list, opened and never closed
        RawPeer.Answer answer = send(RawPeer.body(GREETER, "describe", "Ljava/lang/Object;", RawPeer.raw(deep)));
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.status());
        assertTrue(answer.message().contains("nested deeper"), answer.message());
        assertStillServing();
    }

    @Test
    void anErrorWhileDecodingClosesOnlyThatConnection() throws Exception {
        restartWith(ClassAllowList.ofClasses(Explosive.class),
                invocation -> CompletableFuture.completedFuture(Result.of("ran")));
        try (RawPeer bystander = new RawPeer(server.address()); RawPeer victim = new RawPeer(server.address())) {
            victim.sendRequest(1, RawPeer.body(GREETER, "describe", "Ljava/lang/Object;",
                    RawPeer.raw(explosiveInstance())));
            assertThrows(java.io.EOFException.class, victim::readAnswer, "the connection is closed, no answer");
            bystander.sendRequest(2, RawPeer.body(GREETER, "hello", "Ljava/lang/String;",
                    RawPeer.objects("still here", RawPeer.attachments())));
            assertEquals(20, bystander.readAnswer().status());
        }
        assertStillServing();
    }

    @Test
    void deepNestingOfUntypedMapsIsRejectedToo() throws Exception {
        byte[] deep = new byte[60_000];
        for (int i = 0; i < deep.length; i += 2) {
            deep[i] = 'M';  // a typed map whose type is the empty string, holding the next one as its first key
            deep[i + 1] = 0x00;
        }
        RawPeer.Answer answer = send(RawPeer.body(GREETER, "describe", "Ljava/lang/Object;", RawPeer.raw(deep)));
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.status());
        assertTrue(answer.message().contains("nested deeper"), answer.message());
        assertStillServing();
    }

    @Test
    void hugeArrayTypeNamesAreRejectedQuickly() throws Exception {
        String type = "[".repeat(20_000) + "int";
        java.io.ByteArrayOutputStream claim = new java.io.ByteArrayOutputStream();
        claim.write('V');
        claim.write('S'); // a long string: 'S', 16-bit length, characters
        claim.write(type.length() >> 8);
        claim.write(type.length() & 0xff);
        claim.writeBytes(type.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        claim.write(0x90);
        long start = System.nanoTime();
        RawPeer.Answer answer = send(RawPeer.body(GREETER, "describe", "Ljava/lang/Object;",
                RawPeer.raw(claim.toByteArray())));
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.status());
        assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) < 2);
    }

    @Test
    void classObjectsAreNotAllowed() throws Exception {
        RawPeer.Answer answer = send(describeWith(Thread.class, RawPeer.attachments()));
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.status());
        assertTrue(answer.message().contains("java.lang.Class"), answer.message());
        assertEquals(0, invocations.get());
    }

    @Test
    void unknownVersionIsRefusedBeforeItsArgumentsAreDecoded() throws Exception {
        byte[] body = RawPeer.body(GREETER, "hello", "Ljava/lang/String;", (h, buf) -> {
            h.flush();
            buf.writeBytes(new byte[] {0x56, 0x04, '[', 'i', 'n', 't', 'I', 0x7f, (byte) 0xff, (byte) 0xff,
                    (byte) 0xff});
        });
        // the head says version 0.0.0; rewrite it to 9.9.9 (same length) to ask for a version nobody exports
        String asText = new String(body, java.nio.charset.StandardCharsets.ISO_8859_1).replaceFirst("0\\.0\\.0",
                "9.9.9");
        RawPeer.Answer answer = send(asText.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        assertEquals(RpcStatus.SERVICE_NOT_FOUND, RpcStatus.fromWire(answer.status(), answer.message()));
        assertTrue(answer.message().contains("version mismatch"), answer.message());
    }

    @Test
    void garbageBodyIsAnsweredBadRequestAndOtherConnectionsAreUnaffected() throws Exception {
        try (RawPeer bystander = new RawPeer(server.address())) {
            byte[] garbage = new byte[64];
            new java.util.Random(1).nextBytes(garbage);
            RawPeer.Answer answer = send(garbage);
            assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.status());
            bystander.sendRequest(5, RawPeer.body(GREETER, "hello", "Ljava/lang/String;",
                    RawPeer.objects("bystander", RawPeer.attachments())));
            assertEquals(20, bystander.readAnswer().status());
        }
    }

    @Test
    void unknownMethodIsAnsweredWithoutDecodingItsArguments() throws Exception {
        byte[] poison = {0x56, 0x04, '[', 'i', 'n', 't', 'I', 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff};
        RawPeer.Answer answer = send(RawPeer.body(GREETER, "nope", "Ljava/lang/String;", RawPeer.raw(poison)));
        assertEquals(RpcStatus.METHOD_NOT_FOUND, RpcStatus.fromWire(answer.status(), answer.message()));
        RawPeer.Answer overload = send(RawPeer.body(GREETER, "hello", "I", RawPeer.raw(poison)));
        assertEquals(RpcStatus.METHOD_NOT_FOUND, RpcStatus.fromWire(overload.status(), overload.message()));
        assertTrue(overload.message().contains("no overload"), overload.message());
    }

    @Test
    void unknownServiceIsAnsweredWithoutDecodingItsArguments() throws Exception {
        byte[] poison = {0x57, 0x57, 0x57};
        RawPeer.Answer answer = send(RawPeer.body("com.example.Nope", "hello", "Ljava/lang/String;",
                RawPeer.raw(poison)));
        assertEquals(RpcStatus.SERVICE_NOT_FOUND.wireCode(), answer.status());
        assertTrue(answer.message().contains("com.example.Nope"));
    }

    @Test
    void wrongArgumentTypeIsAnsweredBadRequest() throws Exception {
        byte[] body = RawPeer.body(GREETER, "hello", "Ljava/lang/String;",
                RawPeer.objects(List.of(1, 2), RawPeer.attachments()));
        RawPeer.Answer answer = send(body);
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.status());
        assertEquals(0, invocations.get());
    }

    @Test
    void collidingListAttachmentKeysAreRefusedAtTheFirstKey() throws Exception {
        // the report's 24,000 one-element lists sharing one hash code, as attachment keys: 13.8 s of CPU before
        byte[] body = RawPeer.body(GREETER, "describe", "Ljava/lang/Object;", (h, buf) -> {
            h.writeObject("fine");
            HostileValues.writeMap(h, HostileValues.collidingLists(24_000), "v");
        });
        RawPeer.Answer answer = send(body);
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.status());
        assertTrue(answer.message().contains("attachments: key 0 is a java.util.ArrayList, refused before it is"
                + " hashed"), answer.message());
        assertEquals(0, invocations.get());
        assertStillServing();
    }

    @Test
    void keysThatCountTheirHashingAreNeverHashedInAttachmentsOrInAMapArgument() throws Exception {
        restartWith(ClassAllowList.ofClasses(HostileValues.CountingList.class),
                invocation -> CompletableFuture.completedFuture(Result.of("ran")));
        List<Object> keys = HostileValues.collidingCountingLists(24_000);
        byte[] inAttachments = RawPeer.body(GREETER, "describe", "Ljava/lang/Object;", (h, buf) -> {
            h.writeObject("fine");
            HostileValues.writeMap(h, keys, "v");
        });
        byte[] inArgument = RawPeer.body(GREETER, "describe", "Ljava/lang/Object;", (h, buf) -> {
            HostileValues.writeMap(h, keys, "v");
            h.writeObject(RawPeer.attachments());
        });
        HostileValues.CountingList.CALLS.set(0);
        RawPeer.Answer attachments = send(inAttachments);
        RawPeer.Answer argument = send(inArgument);
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(), attachments.status());
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(), argument.status());
        assertTrue(argument.message().contains("as key 0 of a java.util.HashMap is refused before it is hashed"),
                argument.message());
        assertEquals(0, HostileValues.CountingList.CALLS.get(), "the provider hashed or compared no key");
        assertStillServing();
    }

    @Test
    void backReferencedListKeysOf31And64LevelsAreRefusedByTheDecodeBudget() throws Exception {
        for (int levels : new int[] {31, 64}) {
            List<Object> key = HostileValues.backReferencedLists(levels);
            byte[] body = RawPeer.body(GREETER, "describe", "Ljava/lang/Object;", (h, buf) -> {
                h.writeObject("fine");
                HostileValues.writeMap(h, List.of(key), "v");
            });
            byte[] plain = RawPeer.body(GREETER, "describe", "Ljava/lang/Object;", RawPeer.objects("fine",
                    RawPeer.attachments("k", "v")));
            assertTrue(body.length - plain.length < 4 * levels, "the key takes a few bytes a level");
            RawPeer.Answer answer = send(body);
            assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.status());
            assertTrue(answer.message().contains("decode budget exceeded") && answer.message().contains(
                    "DecodeBudget.MAX_VALUES"), answer.message());
            assertStillServing();
        }
        assertEquals(2, invocations.get(), "only the calls that checked the provider still serves");
    }

    @Test
    void aSetArgumentOfCollidingListsIsRefusedAtItsFirstElement() throws Exception {
        byte[] body = RawPeer.body(GREETER, "describe", "Ljava/lang/Object;", (h, buf) -> {
            HostileValues.writeHashSet(h, HostileValues.collidingLists(24_000));
            h.writeObject(RawPeer.attachments());
        });
        RawPeer.Answer answer = send(body);
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.status());
        assertTrue(answer.message().contains("a java.util.ArrayList as key 0 of a java.util.HashSet"),
                answer.message());
        assertEquals(0, invocations.get());
        assertStillServing();
    }

    @Test
    void aGenericCallCannotFloodASetParameterWithCollidingLists() throws Exception {
        // Dubbo's $invoke(name, types, args): the arguments arrive as a plain list, which the decoder hashes nowhere,
        // and become the Set that tally declares; 24,000 colliding lists would cost the square of the count there
        restartWith(ClassAllowList.ofClasses(HostileValues.CountingList.class),
                invocation -> CompletableFuture.completedFuture(Result.of(0)));
        List<Object> lists = HostileValues.collidingCountingLists(24_000);
        byte[] body = RawPeer.body(GREETER, "$invoke", GenericCalls.DESCRIPTOR, RawPeer.objects("tally",
                new String[] {"java.util.Set"}, new Object[] {lists}, RawPeer.attachments("generic", "true")));
        HostileValues.CountingList.CALLS.set(0);
        RawPeer.Answer answer = send(body);
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.status());
        assertTrue(answer.message().contains("argument 0 [0]: a " + HostileValues.CountingList.class.getName()
                + " as key 0 of a java.util.LinkedHashSet is refused before it is hashed"), answer.message());
        assertEquals(0, HostileValues.CountingList.CALLS.get(), "the provider hashed or compared no list");
        assertStillServing();
    }

    @Test
    void objectAttachmentsOfADubbo3PeerStillArrive() throws Exception {
        RawPeer.Answer answer = send(describeWith("fine", RawPeer.attachments("item", new Greeter.Item("a", 1),
                "count", 3)));
        assertEquals(20, answer.status());
        assertEquals(new Greeter.Item("a", 1), lastAttachments.get("item"));
        assertEquals(3, lastAttachments.get("count"));
    }

    @Test
    void echoIsAnsweredForEveryService() throws Exception {
        ProviderEndpoint client = clients.direct(server.address(), ClientOptions.defaults());
        Invocation echo = new Invocation(GREETER, "", "", EchoService.class.getMethod("$echo", Object.class),
                new Object[] {"OK"}, Map.of(), Deadline.after(Duration.ofSeconds(5), Ticker.system()), false,
                Runnable::run);
        assertEquals("OK", client.invoke(echo).get(5, TimeUnit.SECONDS).value());
        Invocation items = ClientExtension.invocation(ClientExtension.method("items", int.class), 5000, 1);
        assertEquals(List.of(new Greeter.Item("a", 1)), client.invoke(items).get(5, TimeUnit.SECONDS).value());
    }
}
