package io.ferry.rpc.config.internal.files;

import io.ferry.rpc.config.internal.files.DidYouMean;
import io.ferry.rpc.option.Option;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Settings;
import org.xml.sax.Attributes;
import org.xml.sax.InputSource;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

import javax.xml.XMLConstants;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParser;
import javax.xml.parsers.SAXParserFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Reads {@code ferry.xml} into a {@link FileModel}, with the JDK's parser: validated against {@code ferry.xsd},
 * DTDs and external entities refused (no XXE), and every mistake reported with the file, line, element and
 * attribute. Ferry's own checks run first, so a wrong value or an unknown attribute gets the option table's message
 * and a "did you mean"; the schema catches whatever they do not.
 *
 * <p>The root is {@code <ferry:config>}, or Spring's {@code <beans>} so that a Dubbo file ports by changing its
 * namespace and prefix; there, {@code <bean id class>} declares an implementation a service names by {@code ref}.
 *
 * <p>Read for a host ({@link #readHosted}, Spring's namespace), the file is the host's: its other elements are the
 * host's business and skipped, the host has validated it against the schemas it knows, and values go through the
 * host's placeholder resolution rather than being refused.
 */
final class XmlReader extends DefaultHandler {
    private static final String XSI = XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI;
    private static volatile Schema schema;

    private final String file;
    /** The host's placeholder resolution; null when Ferry reads the file itself (placeholders refused). */
    private final UnaryOperator<String> hostValues;
    private final FileModel model = new FileModel();
    private final Deque<String> open = new ArrayDeque<>();
    private final Map<String, Integer> seenOnce = new HashMap<>();
    private final List<SAXParseException> schemaErrors = new ArrayList<>();
    private Locator locator;
    private FileModel.Member member;
    private String memberWhere;
    private XmlVocabulary.Element memberKind;
    /** Depth inside an element of the host's that is being skipped; 0 when none is. */
    private int skipping;
    private String skippedWhere;

    private XmlReader(String file, UnaryOperator<String> hostValues) {
        this.file = file;
        this.hostValues = hostValues;
    }

    static FileModel read(Path path) {
        try (InputStream in = Files.newInputStream(path)) {
            return read(path.getFileName().toString(), in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    static FileModel read(String name, InputStream in) {
        return read(new XmlReader(name, null), in);
    }

    /**
     * Reads the Ferry elements of a host's file (a Spring XML file) and skips the rest; {@code values} resolves
     * the host's placeholders in every attribute value.
     */
    static FileModel readHosted(String name, InputStream in, UnaryOperator<String> values) {
        return read(new XmlReader(name, java.util.Objects.requireNonNull(values, "values")), in);
    }

    private static FileModel read(XmlReader reader, InputStream in) {
        String name = reader.file;
        try {
            SAXParser parser = parserFactory(reader.hostValues == null).newSAXParser();
            parser.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            parser.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            InputSource source = new InputSource(in);
            source.setSystemId(name);
            parser.parse(source, reader);
        } catch (SAXParseException e) {
            throw new IllegalArgumentException(name + ":" + e.getLineNumber() + ": " + readable(e), e);
        } catch (SAXException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK's XML parser lacks a secure configuration: " + e, e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name + ": " + e.getMessage(), e);
        }
        return reader.model;
    }

    private static String readable(SAXParseException e) {
        String message = e.getMessage();
        if (message != null && message.contains("DOCTYPE")) {
            return "a DOCTYPE (expected: none; DTDs and external entities are refused)";
        }
        return message;
    }

    private static SAXParserFactory parserFactory(boolean validating) throws ParserConfigurationException,
            SAXException {
        SAXParserFactory factory = SAXParserFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setXIncludeAware(false);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
        factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        if (validating) {
            factory.setSchema(schema());
        }
        return factory;
    }

    /** Ferry's schema and the beans subset, read from the jar once; nothing is fetched from anywhere else. */
    static Schema schema() throws SAXException {
        Schema s = schema;
        if (s == null) {
            SchemaFactory factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
            factory.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            factory.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            s = factory.newSchema(new StreamSource[] {
                    resource(XmlVocabulary.XSD_RESOURCE), resource("io/ferry/rpc/config/internal/beans-subset.xsd")});
            schema = s;
        }
        return s;
    }

    private static StreamSource resource(String name) {
        URL url = XmlReader.class.getClassLoader().getResource(name);
        if (url == null) {
            throw new IllegalStateException(name + " is missing from the class path (a broken Ferry jar?)");
        }
        return new StreamSource(url.toExternalForm());
    }

    @Override
    public void setDocumentLocator(Locator locator) {
        this.locator = locator;
    }

    // ---- the schema's findings wait until Ferry's own checks of the same element have had their say

    @Override
    public void error(SAXParseException e) {
        schemaErrors.add(e);
    }

    @Override
    public void fatalError(SAXParseException e) throws SAXException {
        throw e;
    }

    private void schemaVerdict() throws SAXParseException {
        if (!schemaErrors.isEmpty()) {
            throw schemaErrors.get(0);
        }
    }

    @Override
    public void startElement(String uri, String localName, String qName, Attributes attributes)
            throws SAXException {
        String shown = XmlVocabulary.NAMESPACE.equals(uri) ? localName : qName;
        String where = file + ":" + locator.getLineNumber() + ": <" + shown + ">";
        if (skipping > 0) {
            skipping++;
            if (XmlVocabulary.NAMESPACE.equals(uri)) {
                throw new IllegalArgumentException(where + " inside " + skippedWhere + ": not read (expected: "
                        + "Ferry's elements at the top level of <beans>, not nested in the host's elements)");
            }
            return;
        }
        if (open.isEmpty()) {
            root(uri, localName, qName, where);
        } else if (open.size() == 1 && hostValues != null && !XmlVocabulary.NAMESPACE.equals(uri)) {
            skipping = 1; // the host's own element: a bean, an import, a placeholder configurer, ...
            skippedWhere = "<" + shown + "> (line " + locator.getLineNumber() + ")";
            return;
        } else if (open.size() == 1) {
            topLevel(uri, localName, qName, attributes, where);
        } else if (open.size() == 2 && XmlVocabulary.NAMESPACE.equals(uri) && localName.equals("method")) {
            method(attributes);
        } else {
            String reason = XmlVocabulary.NAMESPACE.equals(uri) ? XmlVocabulary.UNSUPPORTED_ELEMENTS.get(localName)
                    : null;
            throw new IllegalArgumentException(where + " inside <" + open.peek() + ">: "
                    + (reason != null ? "not supported by Ferry: " + reason : "not expected there"));
        }
        open.push(shown);
        schemaVerdict();
    }

    @Override
    public void endElement(String uri, String localName, String qName) throws SAXException {
        if (skipping > 0) {
            skipping--;
            return;
        }
        open.pop();
        if (open.size() == 1) {
            member = null;
        }
        schemaVerdict();
    }

    @Override
    public void endDocument() throws SAXException {
        schemaVerdict();
    }

    private void root(String uri, String localName, String qName, String where) {
        boolean ferry = XmlVocabulary.NAMESPACE.equals(uri) && localName.equals("config");
        boolean beans = XmlVocabulary.BEANS_NAMESPACE.equals(uri) && localName.equals("beans");
        if (!ferry && !beans) {
            throw new IllegalArgumentException(where + (uri.isEmpty() ? " in no namespace" : " of " + uri)
                    + " (expected: <config> of " + XmlVocabulary.NAMESPACE + ", or Spring's <beans>)");
        }
    }

    private void topLevel(String uri, String localName, String qName, Attributes attributes, String where) {
        if (XmlVocabulary.BEANS_NAMESPACE.equals(uri) && localName.equals("bean")) {
            bean(attributes, where);
            return;
        }
        XmlVocabulary.Element element = XmlVocabulary.NAMESPACE.equals(uri) ? XmlVocabulary.Element.byTag(localName)
                : null;
        if (element == null || element == XmlVocabulary.Element.METHOD) {
            throw unknownElement(uri, localName, where);
        }
        Map<String, String> values = attributes(attributes, where);
        switch (element) {
            case APPLICATION -> options(element, values, model.application, once(element, where));
            case REGISTRY -> registry(values, once(element, where));
            case PROTOCOL -> protocol(values, once(element, where));
            case SSL -> options(element, values, model.ssl, once(element, where));
            case PROVIDER -> options(element, values, model.provider, once(element, where));
            case CONSUMER -> options(element, values, model.consumer, once(element, where));
            case SERVICE -> service(values, where);
            case REFERENCE -> reference(values, where);
            default -> throw new IllegalStateException(element.name());
        }
    }

    private IllegalArgumentException unknownElement(String uri, String localName, String where) {
        if (!XmlVocabulary.NAMESPACE.equals(uri)) {
            return new IllegalArgumentException(where + ": not a Ferry element (expected: an element of "
                    + XmlVocabulary.NAMESPACE + (XmlVocabulary.BEANS_NAMESPACE.equals(uri) ? ", or <bean id class>"
                    : "") + ")");
        }
        String reason = XmlVocabulary.UNSUPPORTED_ELEMENTS.get(localName);
        if (reason != null) {
            return new IllegalArgumentException(where + ": not supported by Ferry: " + reason);
        }
        List<String> tags = new ArrayList<>();
        for (XmlVocabulary.Element element : XmlVocabulary.Element.values()) {
            tags.add(element.tag);
        }
        String near = DidYouMean.nearest(localName, tags);
        return new IllegalArgumentException(where + ": no such element" + (localName.equals("method")
                ? " here (expected: <method> inside a <service> or <reference>)"
                : near != null ? " (did you mean <" + near + ">?)" : " (expected: one of " + tags + ")"));
    }

    /**
     * The element's own attributes, in order; those of other namespaces (xsi:schemaLocation) are the parser's. A
     * host resolves its placeholders in them; read by Ferry alone, a placeholder is refused.
     */
    private Map<String, String> attributes(Attributes attributes, String where) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < attributes.getLength(); i++) {
            String uri = attributes.getURI(i);
            if (uri.isEmpty()) {
                String value = attributes.getValue(i);
                if (hostValues == null) {
                    refusePlaceholder(where + " " + attributes.getLocalName(i), value);
                } else {
                    value = resolved(where + " " + attributes.getLocalName(i), value);
                }
                values.put(attributes.getLocalName(i), value);
            } else if (!XSI.equals(uri)) {
                throw new IllegalArgumentException(where + " " + attributes.getQName(i)
                        + ": an attribute of another namespace (expected: Ferry's attributes only)");
            }
        }
        return values;
    }

    private String resolved(String where, String value) {
        try {
            return hostValues.apply(value);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(where + "=\"" + value + "\": " + e.getMessage(), e);
        }
    }

    /** A Spring placeholder would otherwise be taken literally, as a version or group named "${env}". */
    static void refusePlaceholder(String where, String value) {
        if (value.contains("${")) {
            throw new IllegalArgumentException(where + "=\"" + value + "\": a placeholder (expected: a value; Ferry "
                    + "does not resolve placeholders: set the value with -Dferry.... or a ferry.properties instead)");
        }
    }

    /** Application, registry, protocol, ssl, provider and consumer appear at most once in a file. */
    private String once(XmlVocabulary.Element element, String where) {
        Integer first = seenOnce.putIfAbsent(element.tag, locator.getLineNumber());
        if (first != null) {
            throw new IllegalArgumentException(where + ": a second <" + element.tag + "> (the first is at line "
                    + first + "; Ferry takes one per file)");
        }
        return where;
    }

    private void registry(Map<String, String> values, String where) {
        // Dubbo's protocol="zookeeper" address="host:port": the scheme of an address that has none; a scheme that
        // no registry provider registers is refused with the address, as in address="nope://host:port"
        String protocol = values.remove("protocol");
        if (protocol != null) {
            String address = values.get("address");
            if (address != null && !address.contains("://")) {
                values.put("address", protocol.strip() + "://" + address.strip());
            }
        }
        options(XmlVocabulary.Element.REGISTRY, values, model.registry, where);
    }

    private void protocol(Map<String, String> values, String where) {
        fixed(values, "name", "dubbo", where);
        options(XmlVocabulary.Element.PROTOCOL, values, model.protocol, where);
    }

    private static void fixed(Map<String, String> values, String attribute, String only, String where) {
        String value = values.remove(attribute);
        if (value != null && !value.strip().equals(only)) {
            throw new IllegalArgumentException(where + " " + attribute + "=\"" + value + "\" (expected: " + only
                    + ", the only one Ferry speaks)");
        }
    }

    private void service(Map<String, String> values, String where) {
        String type = required(values, "interface", where);
        where = file + ":" + locator.getLineNumber() + ": <service interface=\"" + type + "\">";
        FileModel.Member existing = model.services.get(type);
        if (existing != null) {
            throw new IllegalArgumentException(where + ": declared twice (first at " + existing.firstSeen
                    + "; one service per interface in a file)");
        }
        member = new FileModel.Member(type, where);
        model.services.put(type, member);
        String implementation = values.remove("class");
        String ref = values.remove("ref");
        if (implementation != null && ref != null) {
            throw new IllegalArgumentException(where + ": both class and ref (expected: one of them)");
        }
        member.type = implementation;
        member.typeWhere = where;
        member.ref = ref;
        member.refWhere = where;
        memberKind = XmlVocabulary.Element.SERVICE;
        memberWhere = where;
        options(XmlVocabulary.Element.SERVICE, values, member.settings, where);
    }

    private void reference(Map<String, String> values, String where) {
        String id = required(values, "id", where);
        where = file + ":" + locator.getLineNumber() + ": <reference id=\"" + id + "\">";
        FileModel.Member existing = model.references.get(id);
        if (existing != null) {
            throw new IllegalArgumentException(where + ": the id is taken (first at " + existing.firstSeen + ")");
        }
        member = new FileModel.Member(id, where);
        model.references.put(id, member);
        member.type = required(values, "interface", where);
        member.typeWhere = where;
        memberKind = XmlVocabulary.Element.REFERENCE;
        memberWhere = where;
        options(XmlVocabulary.Element.REFERENCE, values, member.settings, where);
    }

    private void method(Attributes attributes) {
        String where = file + ":" + locator.getLineNumber() + ": <method>";
        if (member == null) {
            throw new IllegalArgumentException(where + " inside <" + open.peek()
                    + "> (expected: inside a <service> or <reference>)");
        }
        Map<String, String> values = attributes(attributes, where);
        String name = required(values, "name", where);
        where = file + ":" + locator.getLineNumber() + ": <method name=\"" + name + "\"> of "
                + memberWhere.substring(memberWhere.indexOf('<'));
        if (member.methods.containsKey(name)) {
            throw new IllegalArgumentException(where + ": declared twice in this " + memberKind.tag);
        }
        Settings settings = new Settings();
        member.methods.put(name, settings);
        String returns = values.remove("return");
        if (returns != null) {
            boolean waits = Boolean.TRUE.equals(bool(returns, where + " return"));
            settings.put(Options.ONEWAY, !waits, where);
        }
        options(XmlVocabulary.Element.METHOD, values, settings, where);
    }

    private static Boolean bool(String text, String where) {
        String t = text.strip();
        if (!t.equals("true") && !t.equals("false")) {
            throw new IllegalArgumentException(where + "=\"" + text + "\" (expected: true or false)");
        }
        return Boolean.valueOf(t);
    }

    private void bean(Map<String, String> values, String where) {
        String id = required(values, "id", where);
        String type = required(values, "class", where);
        if (!values.isEmpty()) {
            throw new IllegalArgumentException(where + " " + values.keySet().iterator().next()
                    + ": Ferry reads <bean id class> only (no properties, no constructor arguments)");
        }
        FileModel.Bean before = model.beans.putIfAbsent(id, new FileModel.Bean(id, type, where));
        if (before != null) {
            throw new IllegalArgumentException(where + ": bean id '" + id + "' is taken (first at "
                    + before.where() + ")");
        }
    }

    private void bean(Attributes attributes, String where) {
        bean(attributes(attributes, where), where);
    }

    private static String required(Map<String, String> values, String attribute, String where) {
        String value = values.remove(attribute);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(where + ": " + attribute + " is missing (expected: "
                    + attribute + "=\"...\")");
        }
        return value.strip();
    }

    /** Every remaining attribute must be an option of the element's scope; the table parses and checks it. */
    private static void options(XmlVocabulary.Element element, Map<String, String> values, Settings into,
                                String where) {
        Map<String, Option<?>> options = element.options();
        for (Map.Entry<String, String> attribute : values.entrySet()) {
            String name = attribute.getKey();
            Option<?> option = options.get(name);
            if (option == null) {
                throw unknownAttribute(element, name, where);
            }
            into.parse(option, attribute.getValue(), where, name);
        }
    }

    private static IllegalArgumentException unknownAttribute(XmlVocabulary.Element element, String name,
                                                             String where) {
        String reason = XmlVocabulary.UNSUPPORTED_DUBBO.get(name);
        if (reason != null) {
            return new IllegalArgumentException(where + " " + name + ": not supported by Ferry: " + reason);
        }
        List<String> elsewhere = new ArrayList<>();
        for (XmlVocabulary.Element other : XmlVocabulary.Element.values()) {
            if (other.attributeNames().contains(name)) {
                elsewhere.add("<" + other.tag + ">");
            }
        }
        if (!elsewhere.isEmpty()) {
            return new IllegalArgumentException(where + " " + name + ": not an attribute of <" + element.tag
                    + "> (it is of " + String.join(", ", elsewhere) + ")");
        }
        String near = DidYouMean.nearest(name, element.attributeNames());
        return new IllegalArgumentException(where + " " + name + ": no such attribute"
                + (near != null ? " (did you mean " + near + "?)" : " (expected: one of "
                + element.attributeNames() + ")"));
    }
}
