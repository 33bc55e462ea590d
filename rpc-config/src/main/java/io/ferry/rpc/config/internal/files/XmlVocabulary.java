package io.ferry.rpc.config.internal.files;

import io.ferry.rpc.option.Option;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.option.Scope;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The words of {@code ferry.xml}: its elements, the attributes each takes (the option table's, spelled as Dubbo
 * spells them, plus those that say what is configured), and the Dubbo attributes Ferry refuses, each with why.
 * The XSD ({@link XsdWriter}) and the reader ({@link XmlReader}) are both made from it.
 */
final class XmlVocabulary {
    static final String NAMESPACE = "http://ferry.io/schema/ferry";
    static final String BEANS_NAMESPACE = "http://www.springframework.org/schema/beans";
    /** The shipped schema, generated from this vocabulary; {@code FerrySchemaTest} fails when it is stale. */
    static final String XSD_RESOURCE = "io/ferry/rpc/config/ferry.xsd";

    private XmlVocabulary() {
    }

    /** An attribute that names what is configured rather than setting an option. */
    record Structural(String name, boolean required, String doc) {
    }

    /** An element that holds options of one scope. */
    enum Element {
        APPLICATION("application", Scope.APPLICATION, "this process, as it registers itself"),
        REGISTRY("registry", Scope.REGISTRY, "the registry (one per file)",
                new Structural("protocol", false, "the registry's scheme when the address has none: zookeeper, or "
                        + "one a jar registers")),
        PROTOCOL("protocol", Scope.PROTOCOL, "the server services are exported on (one per file)",
                new Structural("name", false, "dubbo (the only protocol Ferry speaks)")),
        SSL("ssl", Scope.SSL, "TLS: certificates, keys and trust of the protocol (server-*) and of the consumer "
                + "(client-*), as Dubbo's <ssl> (one per file); the protocol's and the consumer's ssl-enabled turn it on"),
        PROVIDER("provider", Scope.PROVIDER, "defaults for the protocol and every service of the file"),
        CONSUMER("consumer", Scope.CONSUMER, "defaults for every reference of the file"),
        SERVICE("service", Scope.SERVICE, "a service to export",
                new Structural("interface", true, "the service interface"),
                new Structural("class", false, "the implementation, made with its no-arg constructor"),
                new Structural("ref", false, "the id of an implementation: a bean of the file or one given "
                        + "to Ferry.fromXml")),
        REFERENCE("reference", Scope.REFERENCE, "a reference to create; Ferry.reference(id, type) returns it",
                new Structural("id", true, "the name the reference is got by"),
                new Structural("interface", true, "the service interface")),
        METHOD("method", Scope.METHOD, "settings of one method of a service or reference",
                new Structural("name", true, "the method's name"));

        final String tag;
        final Scope scope;
        final String doc;
        final List<Structural> structural;

        Element(String tag, Scope scope, String doc, Structural... structural) {
            this.tag = tag;
            this.scope = scope;
            this.doc = doc;
            this.structural = List.of(structural);
        }

        /** The options it takes, by attribute name, in the option table's order. */
        Map<String, Option<?>> options() {
            Map<String, Option<?>> byAttribute = new LinkedHashMap<>();
            for (Option<?> option : Options.all()) {
                if (option.scopes().contains(scope)) {
                    byAttribute.put(attributeOf(option), option);
                }
            }
            return byAttribute;
        }

        /** Every attribute name it takes, for "did you mean". */
        List<String> attributeNames() {
            List<String> names = new ArrayList<>();
            structural.forEach(s -> names.add(s.name()));
            names.addAll(options().keySet());
            return names;
        }

        static Element byTag(String tag) {
            for (Element element : values()) {
                if (element.tag.equals(tag)) {
                    return element;
                }
            }
            return null;
        }
    }

    /**
     * The attribute an option is set with. {@code oneway} is Dubbo's {@code return="false"}: the XML keeps Dubbo's
     * attribute, with its meaning inverted.
     */
    static String attributeOf(Option<?> option) {
        return option == Options.ONEWAY ? "return" : option.fileName();
    }

    /** Dubbo attributes Ferry does not take, with the reason given to whoever writes one. */
    static final Map<String, String> UNSUPPORTED_DUBBO = new LinkedHashMap<>();

    static {
        UNSUPPORTED_DUBBO.put("async", "a method is asynchronous when it returns CompletableFuture");
        UNSUPPORTED_DUBBO.put("sent", "a call counts as sent once its frame is written, always");
        UNSUPPORTED_DUBBO.put("listener", "add a Filter in code instead");
        UNSUPPORTED_DUBBO.put("proxy", "Ferry makes JDK proxies only");
        UNSUPPORTED_DUBBO.put("stub", "no local stubs: wrap the reference in code");
        UNSUPPORTED_DUBBO.put("local", "no local stubs: wrap the reference in code");
        UNSUPPORTED_DUBBO.put("mock", "no mock fallback: use cluster=\"failsafe\" or handle RpcException");
        UNSUPPORTED_DUBBO.put("cache", "no result cache");
        UNSUPPORTED_DUBBO.put("validation", "no JSR-303 validation of arguments");
        UNSUPPORTED_DUBBO.put("delay", "a service is exported when export() returns; readiness pings keep "
                + "consumers away until then");
        UNSUPPORTED_DUBBO.put("register", "a service is registered whenever the bootstrap has a registry");
        UNSUPPORTED_DUBBO.put("deprecated", "no deprecation marks in the registry");
        UNSUPPORTED_DUBBO.put("dynamic", "services stay registered while the provider's session lives");
        UNSUPPORTED_DUBBO.put("weight", "no static weights: the adaptive balancer weighs providers by measured "
                + "latency");
        UNSUPPORTED_DUBBO.put("sticky", "no sticky calls: loadbalance=\"consistenthash\" keeps equal arguments on "
                + "one provider");
        UNSUPPORTED_DUBBO.put("injvm", "no in-JVM shortcut: calls go through the protocol");
        UNSUPPORTED_DUBBO.put("scope", "no in-JVM shortcut: calls go through the protocol");
        UNSUPPORTED_DUBBO.put("callbacks", "no callback arguments");
        UNSUPPORTED_DUBBO.put("onreturn", "use the CompletableFuture a method returns");
        UNSUPPORTED_DUBBO.put("onthrow", "use the CompletableFuture a method returns");
        UNSUPPORTED_DUBBO.put("oninvoke", "use a Filter");
        UNSUPPORTED_DUBBO.put("merger", "no merging of groups' results");
        UNSUPPORTED_DUBBO.put("tag", "no tag routing");
        UNSUPPORTED_DUBBO.put("owner", "no owner metadata in the registry");
        UNSUPPORTED_DUBBO.put("organization", "no organization metadata in the registry");
        UNSUPPORTED_DUBBO.put("environment", "no environment metadata in the registry");
        UNSUPPORTED_DUBBO.put("client", "Netty is the only transport");
        UNSUPPORTED_DUBBO.put("server", "Netty is the only transport");
        UNSUPPORTED_DUBBO.put("transporter", "Netty is the only transport");
        UNSUPPORTED_DUBBO.put("codec", "Ferry speaks the dubbo protocol only");
        UNSUPPORTED_DUBBO.put("charset", "names are UTF-8 on the wire");
        UNSUPPORTED_DUBBO.put("default", "one registry, one protocol per file");
        UNSUPPORTED_DUBBO.put("telnet", "no telnet console: the admin port (qos-enable) answers HTTP");
        UNSUPPORTED_DUBBO.put("id", "one registry, one protocol per file: they need no id");
    }

    /** Elements Dubbo has that Ferry refuses, with why. */
    static final Map<String, String> UNSUPPORTED_ELEMENTS = Map.of(
            "argument", "no callback arguments",
            "parameter", "no free-form parameters: every option is an attribute (see the option reference)",
            "module", "no module metadata in the registry",
            "monitor", "no monitor center: see the connection views and logs",
            "config-center", "no config center: use ferry.properties or -D",
            "metadata-report", "no metadata center");

    /** The README's list of what a Dubbo file may hold that Ferry refuses, with why. */
    static String unsupportedMarkdown() {
        StringBuilder md = new StringBuilder();
        UNSUPPORTED_DUBBO.forEach((attribute, reason) ->
                md.append("- `").append(attribute).append("`: ").append(reason).append('\n'));
        new java.util.TreeMap<>(UNSUPPORTED_ELEMENTS).forEach((element, reason) ->
                md.append("- `<").append(element).append(">`: ").append(reason).append('\n'));
        return md.toString();
    }
}
