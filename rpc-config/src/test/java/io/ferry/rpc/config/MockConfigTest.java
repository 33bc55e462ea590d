package io.ferry.rpc.config;

import io.ferry.rpc.RpcException;

import io.ferry.rpc.config.fixtures.FerryFixture;
import io.ferry.rpc.config.mock.BadMocks;
import io.ferry.rpc.config.mock.Greeting;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.internal.files.Sources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A wrong {@code mock} or {@code stub} fails when the reference is created (for a file, when it is loaded), naming
 * where it was set, the option, and what is wrong, before any connection is opened.
 */
class MockConfigTest {
    @RegisterExtension
    final FerryFixture ferries = new FerryFixture();

    /** Nothing listens there; with check off, a reference that is created never connects before its first call. */
    private static final String NOWHERE = "dubbo://127.0.0.1:9";

    private String refusedReference(ReferenceConfig.Builder<?> reference) {
        Ferry consumer = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none()).build());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> consumer.reference(reference.url(NOWHERE).check(false).build()));
        assertTrue(consumer.consumerConnections().connections().isEmpty(), "nothing was opened");
        return e.getMessage();
    }

    private String refusedMock(String mock) {
        return refusedReference(ReferenceConfig.builder(Greeting.class).mock(mock));
    }

    @Test
    void aMockClassMustExistImplementTheInterfaceAndHaveAPublicNoArgumentConstructor() {
        assertEquals("mock: 'com.acme.Missing': no such class (expected: return ..., throw ..., true, default, or a "
                + "class implementing " + Greeting.class.getName() + ")", refusedMock("com.acme.Missing"));
        assertEquals("mock: '" + BadMocks.NotAGreeting.class.getName() + "' does not implement "
                + Greeting.class.getName() + " (expected: a mock class implementing the interface)",
                refusedMock(BadMocks.NotAGreeting.class.getName()));
        assertEquals("mock: '" + BadMocks.WithoutDefaultConstructor.class.getName() + "' has no public "
                + "no-argument constructor (expected: a public, concrete class with one, as Dubbo makes mocks)",
                refusedMock(BadMocks.WithoutDefaultConstructor.class.getName()));
        String noMockBeside = refusedReference(ReferenceConfig.builder(UserService.class).mock("true"));
        assertTrue(noMockBeside.startsWith("mock: '" + UserService.class.getName() + "Mock': no such class "
                + "(expected: a class " + UserService.class.getName() + "Mock beside UserService"), noMockBeside);
    }

    @Test
    void aReturnValueMustBeOfTheMethodsReturnType() {
        String notANumber = refusedReference(ReferenceConfig.builder(Greeting.class)
                .method(MethodConfig.builder("count").mock("return many").build()));
        assertEquals("method count: mock: 'return many' for count(), which returns int (expected: a whole number "
                + "that fits int, not 'many')", notANumber);
        // the reference's, as Dubbo files write it: the methods it cannot answer go without a mock, with a WARN
        Ferry consumer = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none()).build());
        Greeting greeting = consumer.reference(ReferenceConfig.builder(Greeting.class).url(NOWHERE).check(false)
                .mock("return null").build());
        assertNull(greeting.greet("x"), "a method the value fits is mocked");
        assertThrows(RpcException.class, greeting::count, "count() returns int: its real failure reaches the caller");
        String listForText = refusedReference(ReferenceConfig.builder(Greeting.class)
                .method(MethodConfig.builder("greet").mock("return \"x\"").build())
                .method(MethodConfig.builder("names").mock("return {\"a\": 1}").build()));
        assertTrue(listForText.contains("'return {\"a\": 1}' for names(), which returns java.util.List<java.lang"
                + ".String> (expected: a value of java.util.List"), listForText);
    }

    @Test
    void thrownExceptionsMustBeMadeWithAMessageAndDeclaredWhenChecked() {
        assertTrue(refusedMock("throw com.acme.Missing").contains("'com.acme.Missing': no such class"));
        assertTrue(refusedMock("throw java.lang.String").contains("not a Throwable"));
        assertTrue(refusedMock("throw " + BadMocks.Mute.class.getName())
                .contains("no public constructor Mute(String)"));
        String undeclared = refusedMock("throw java.io.IOException");
        assertTrue(undeclared.contains("'throw java.io.IOException': a checked exception that "), undeclared);
        assertTrue(refusedMock("returns null").contains("(expected: return <value>, throw or throw <exception "
                + "class>"));
    }

    @Test
    void aStubMustImplementTheInterfaceWithAConstructorTakingIt() {
        assertEquals("stub: '" + BadMocks.StubWithoutConstructor.class.getName() + "' has no constructor public "
                + "StubWithoutConstructor(" + Greeting.class.getName() + ") (expected: one taking the reference, as "
                + "Dubbo makes stubs)", refusedReference(ReferenceConfig.builder(Greeting.class)
                .stub(BadMocks.StubWithoutConstructor.class.getName())));
        assertTrue(refusedReference(ReferenceConfig.builder(Greeting.class).stub(BadMocks.NotAGreeting.class
                .getName())).contains("does not implement " + Greeting.class.getName()));
        assertTrue(refusedReference(ReferenceConfig.builder(UserService.class).stub("true"))
                .startsWith("stub: '" + UserService.class.getName() + "Stub': no such class"));
        assertEquals("stub: '" + BadMocks.ThrowingStub.class.getName() + "': its constructor threw "
                + "java.lang.IllegalStateException: not today", refusedReference(ReferenceConfig.builder(Greeting.class)
                .stub(BadMocks.ThrowingStub.class.getName())));
    }

    @Test
    void aFileSaysWhereTheWrongMockIs() throws Exception {
        Path xml = ferries.file("consumer.xml",
                "<ferry:config xmlns:ferry=\"http://ferry.io/schema/ferry\">",
                "  <ferry:reference id=\"greeting\" interface=\"" + Greeting.class.getName() + "\" url=\"" + NOWHERE
                        + "\" check=\"false\">",
                "    <ferry:method name=\"count\" mock=\"force:return lots\"/>",
                "  </ferry:reference>",
                "</ferry:config>");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Ferry.fromXml(xml));
        assertTrue(e.getMessage().contains("consumer.xml:3: <method name=\"count\"> of <reference id=\"greeting\">: "
                + "mock: 'force:return lots' for count(), which returns int (expected: a whole number that fits int, "
                + "not 'lots')"), e.getMessage());

        Path properties = ferries.file("consumer.properties",
                "ferry.reference.greeting.interface = " + Greeting.class.getName(),
                "ferry.reference.greeting.url = " + NOWHERE,
                "ferry.reference.greeting.check = false",
                "ferry.reference.greeting.stub = com.acme.Missing");
        IllegalArgumentException p = assertThrows(IllegalArgumentException.class,
                () -> Ferry.fromProperties(properties));
        assertTrue(p.getMessage().startsWith("consumer.properties:4: stub: 'com.acme.Missing': no such class"),
                p.getMessage());
    }

    @Test
    void theMocksAndStubsOfAFilesReferencesAreReportedTogetherInFileOrder() throws Exception {
        Path xml = ferries.file("consumer.xml",
                "<ferry:config xmlns:ferry=\"http://ferry.io/schema/ferry\">",
                "  <ferry:reference id=\"first\" interface=\"" + Greeting.class.getName() + "\" url=\"" + NOWHERE
                        + "\" check=\"false\" stub=\"com.acme.Missing\"/>",
                "  <ferry:reference id=\"fine\" interface=\"" + Greeting.class.getName() + "\" url=\"" + NOWHERE
                        + "\" check=\"false\"/>",
                "  <ferry:reference id=\"second\" interface=\"" + Greeting.class.getName() + "\" url=\"" + NOWHERE
                        + "\" check=\"false\">",
                "    <ferry:method name=\"count\" mock=\"force:return lots\"/>",
                "  </ferry:reference>",
                "</ferry:config>");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Ferry.fromXml(xml));
        java.util.List<String> lines = e.getMessage().lines().toList();
        assertEquals(2, lines.size(), e.getMessage());
        assertTrue(lines.get(0).startsWith("consumer.xml:2: ") && lines.get(0).contains("stub: 'com.acme.Missing': "
                + "no such class"), lines.get(0));
        assertTrue(lines.get(1).startsWith("consumer.xml:5: <method name=\"count\"> of <reference id=\"second\">: "
                + "mock: 'force:return lots'"), lines.get(1));
    }
}
