package io.ferry.rpc.config.internal.files;

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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code ferry.xml} into a {@link FileModel}, with the JDK's parser: validated against {@code ferry.xsd},
 * DTDs and external entities refused (no XXE), and every mistake reported with the file, line, element and
 * attribute. Ferry's own checks run first, so a wrong value or an unknown attribute gets the option table's message
 * and a "did you mean"; the schema catches whatever they do not, and its findings about an attribute (or element)
 * that Ferry's checks already named are dropped rather than said twice.
 *
 * <p>Reading goes on after a mistake: an attribute in error is left out, an element that cannot be read is skipped
 * with what it holds, and a reference or service whose name is wrong is checked on its own; every mistake is kept
 * in the model's {@link FileModel#problems}, for the bootstrap to report with its own in one error. Only XML that
 * is not well-formed stops the reading where it breaks.
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
    /** The attribute a schema finding is about: "Attribute 'x' ...", "... of attribute 'x' on element ...". */
    private static final Pattern SCHEMA_ATTRIBUTE = Pattern.compile("[Aa]ttribute '([^']+)'");
    private static volatile Schema schema;
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(XmlReader.class);

    private final String file;
    /** The host's placeholder resolution; null when Ferry reads the file itself (placeholders refused). */
    private final UnaryOperator<String> hostValues;
    private final FileModel model = new FileModel();
    private final Deque<String> open = new ArrayDeque<>();
    /** For each open element, whether Ferry refused an element inside it (the schema's word on its content, then). */
    private final Deque<Boolean> contentReported = new ArrayDeque<>();
    private final Map<String, Integer> seenOnce = new HashMap<>();
    /** The schema's findings since the last element event, settled against Ferry's own at that event. */
    private final List<SAXParseException> schemaErrors = new ArrayList<>();
    /** Attributes of the element being read that Ferry's checks found wrong. */
    private final Set<String> reportedAttributes = new HashSet<>();
    /** Whether Ferry's checks found the element being read wrong as a whole (unknown, misplaced). */
    private boolean elementReported;
    private Locator locator;
    private FileModel.Member member;
    private String memberWhere;
    private XmlVocabulary.Element memberKind;
    /** Depth inside an element that is being skipped (the host's, or one in error); 0 when none is. */
    private int skipping;
    /** Whether the element being skipped is the host's: Ferry's elements nested in it are then a mistake. */
    private boolean skippingHosts;
    private String skippedWhere;
    /** The ids of the file's application, registry, protocol, provider and consumer, by tag. */
    private final Map<String, String> ids = new HashMap<>();
    /** Attributes that name one of those by id ({@code registry="zk1"}), checked once the file is read. */
    private final List<IdUse> idUses = new ArrayList<>();

    private record IdUse(String attribute, String value, String where, XmlVocabulary.Dubbo dubbo) {
    }

    private XmlReader(String file, UnaryOperator<String> hostValues) {
        this.file = file;
        this.hostValues = hostValues;
    }

    /** Reads a file; throws every mistake in it at once. */
    static FileModel read(Path path) {
        FileModel model = readAll(path);
        model.problems.throwIfAny();
        return model;
    }

    /** Reads a stream; throws every mistake in it at once. */
    static FileModel read(String name, InputStream in) {
        FileModel model = readAll(name, in);
        model.problems.throwIfAny();
        return model;
    }

    /** Reads a file, keeping its mistakes in the model's problems for the bootstrap to add its own. */
    static FileModel readAll(Path path) {
        try (InputStream in = Files.newInputStream(path)) {
            return readAll(path.getFileName().toString(), in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    /** As {@link #readAll(Path)}, from a stream; {@code name}: how messages call it. */
    static FileModel readAll(String name, InputStream in) {
        return read(new XmlReader(name, null), in);
    }

    /**
     * Reads the Ferry elements of a host's file (a Spring XML file) and skips the rest; {@code values} resolves
     * the host's placeholders in every attribute value. The mistakes are kept in the model's problems.
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
            // not well-formed: nothing after it can be read; what came before is reported with it
            reader.model.problems.add(e.getLineNumber(), name + ":" + e.getLineNumber() + ": " + readable(e));
        } catch (SAXException e) {
            reader.model.problems.add(0, name + ": " + e.getMessage());
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

    /**
     * Adds the schema's findings about the element just read, but those about an attribute Ferry's checks named
     * (with the findings before them that name no attribute: the schema says what a value is not, then whose it
     * is), and all of them when Ferry found the element itself wrong.
     */
    private void settleSchemaErrors() {
        List<SAXParseException> group = new ArrayList<>();
        for (SAXParseException e : schemaErrors) {
            group.add(e);
            Matcher attribute = SCHEMA_ATTRIBUTE.matcher(String.valueOf(e.getMessage()));
            if (attribute.find()) {
                if (!elementReported && !reportedAttributes.contains(attribute.group(1))) {
                    group.forEach(this::schemaProblem);
                }
                group.clear();
            }
        }
        if (!elementReported) {
            group.forEach(this::schemaProblem);
        }
        schemaErrors.clear();
    }

    private void schemaProblem(SAXParseException e) {
        model.problems.add(e.getLineNumber(), file + ":" + e.getLineNumber() + ": " + readable(e));
    }

    /** A mistake in one attribute: the attribute is left out, and the schema's word on it dropped. */
    private void attributeProblem(String attribute, IllegalArgumentException e) {
        reportedAttributes.add(attribute);
        model.problems.add(e);
    }

    /** A mistake in the element as a whole. */
    private void elementProblem(IllegalArgumentException e) {
        elementReported = true;
        model.problems.add(e);
    }

    @Override
    public void startElement(String uri, String localName, String qName, Attributes attributes) {
        String shown = XmlVocabulary.NAMESPACE.equals(uri) ? localName : qName;
        String where = file + ":" + locator.getLineNumber() + ": <" + shown + ">";
        reportedAttributes.clear();
        elementReported = false;
        if (skipping > 0) {
            skipping++;
            if (skippingHosts && XmlVocabulary.NAMESPACE.equals(uri)) {
                model.problems.add(new IllegalArgumentException(where + " inside " + skippedWhere + ": not read "
                        + "(expected: Ferry's elements at the top level of <beans>, not nested in the host's "
                        + "elements)"));
            }
            schemaErrors.clear(); // about what is skipped
            return;
        }
        boolean read;
        if (open.isEmpty()) {
            read = root(uri, localName, where);
        } else if (open.size() == 1 && hostValues != null && !XmlVocabulary.NAMESPACE.equals(uri)) {
            skip(shown, true); // the host's own element: a bean, an import, a placeholder configurer, ...
            return;
        } else if (open.size() == 1) {
            read = topLevel(uri, localName, attributes, where);
        } else if (open.size() == 2 && XmlVocabulary.NAMESPACE.equals(uri) && localName.equals("method")) {
            read = method(attributes);
        } else {
            String reason = XmlVocabulary.NAMESPACE.equals(uri) ? XmlVocabulary.UNSUPPORTED_ELEMENTS.get(localName)
                    : null;
            elementProblem(new IllegalArgumentException(where + " inside <" + open.peek() + ">: "
                    + (reason != null ? "not supported by Ferry: " + reason : "not expected there")));
            read = false;
        }
        settleSchemaErrors();
        if (read) {
            open.push(shown);
            contentReported.push(false);
        } else {
            if (!contentReported.isEmpty()) {
                contentReported.pop();
                contentReported.push(true);
            }
            skip(shown, false);
        }
    }

    private void skip(String shown, boolean hosts) {
        skipping = 1;
        skippingHosts = hosts;
        skippedWhere = "<" + shown + "> (line " + locator.getLineNumber() + ")";
    }

    @Override
    public void endElement(String uri, String localName, String qName) {
        reportedAttributes.clear();
        elementReported = false;
        if (skipping > 0) {
            skipping--;
            schemaErrors.clear();
            return;
        }
        open.pop();
        if (open.size() == 1) {
            member = null;
        }
        if (contentReported.pop()) {
            elementReported = true; // what the schema says of its content, Ferry said of the element inside
        }
        settleSchemaErrors();
    }

    @Override
    public void endDocument() {
        reportedAttributes.clear();
        elementReported = false;
        settleSchemaErrors();
        idUses.forEach(this::checkIdUse);
    }

    /**
     * {@code registry="zk1"} and the like name the file's one registry (protocol, provider, consumer, application)
     * by its id: taken, with no effect; a protocol is also named by its name, dubbo.
     */
    private void checkIdUse(IdUse use) {
        String id = ids.get(use.attribute());
        // a protocol's name is its id in Dubbo when it has none, and a reference's protocol is a name
        boolean protocolByName = use.attribute().equals("protocol") && use.value().equalsIgnoreCase("dubbo");
        if (use.value().equals(id) || protocolByName) {
            log.debug("{} {}=\"{}\": the file's one <{}>, taken", use.where(), use.attribute(), use.value(),
                    use.attribute());
            return;
        }
        String taken = id != null ? "the id of the file's <" + use.attribute() + ">, " + id
                : "an id, which the file's <" + use.attribute() + "> does not have";
        model.problems.add(new IllegalArgumentException(use.where() + " " + use.attribute() + "=\"" + use.value()
                + "\": not supported by Ferry: " + use.dubbo().reason() + " (taken, with no effect: " + taken
                + ")"));
    }

    private boolean root(String uri, String localName, String where) {
        boolean ferry = XmlVocabulary.NAMESPACE.equals(uri) && localName.equals("config");
        boolean beans = XmlVocabulary.BEANS_NAMESPACE.equals(uri) && localName.equals("beans");
        if (!ferry && !beans) {
            elementProblem(new IllegalArgumentException(where + (uri.isEmpty() ? " in no namespace" : " of " + uri)
                    + " (expected: <config> of " + XmlVocabulary.NAMESPACE + ", or Spring's <beans>)"));
            return false;
        }
        return true;
    }

    /** Reads an element at the top level; false when it cannot be read at all (then what it holds is skipped). */
    private boolean topLevel(String uri, String localName, Attributes attributes, String where) {
        if (XmlVocabulary.BEANS_NAMESPACE.equals(uri) && localName.equals("bean")) {
            bean(attributes(attributes, where), where);
            return true;
        }
        XmlVocabulary.Element element = XmlVocabulary.NAMESPACE.equals(uri) ? XmlVocabulary.Element.byTag(localName)
                : null;
        if (element == null || element == XmlVocabulary.Element.METHOD) {
            elementProblem(unknownElement(uri, localName, where));
            return false;
        }
        Map<String, String> values = attributes(attributes, where);
        switch (element) {
            case APPLICATION -> options(element, values, once(element, where) ? model.application : new Settings(),
                    where);
            case REGISTRY -> registry(values, once(element, where) ? model.registry : new Settings(), where);
            case PROTOCOL -> protocol(values, once(element, where) ? model.protocol : new Settings(), where);
            case SSL -> options(element, values, once(element, where) ? model.ssl : new Settings(), where);
            case PROVIDER -> options(element, values, once(element, where) ? model.provider : new Settings(), where);
            case CONSUMER -> options(element, values, once(element, where) ? model.consumer : new Settings(), where);
            case SERVICE -> service(values, where);
            case REFERENCE -> reference(values, where);
            case ANNOTATION -> annotation(values, where);
            default -> throw new IllegalStateException(element.name());
        }
        return true;
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
     * host resolves its placeholders in them; read by Ferry alone, a placeholder is refused. An attribute in error
     * is reported and left out.
     */
    private Map<String, String> attributes(Attributes attributes, String where) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < attributes.getLength(); i++) {
            String uri = attributes.getURI(i);
            String name = attributes.getLocalName(i);
            try {
                if (uri.isEmpty()) {
                    String value = attributes.getValue(i);
                    if (hostValues == null) {
                        refusePlaceholder(where + " " + name, value);
                    } else {
                        value = resolved(where + " " + name, value);
                    }
                    values.put(name, value);
                } else if (!XSI.equals(uri)) {
                    throw new IllegalArgumentException(where + " " + attributes.getQName(i)
                            + ": an attribute of another namespace (expected: Ferry's attributes only)");
                }
            } catch (IllegalArgumentException e) {
                attributeProblem(name, e);
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

    /**
     * Application, registry, protocol, ssl, provider and consumer appear at most once in a file: false for a
     * second one, whose attributes are then checked but not taken.
     */
    private boolean once(XmlVocabulary.Element element, String where) {
        Integer first = seenOnce.putIfAbsent(element.tag, locator.getLineNumber());
        if (first != null) {
            model.problems.add(new IllegalArgumentException(where + ": a second <" + element.tag + "> (the first is "
                    + "at line " + first + "; Ferry takes one per file)"));
            return false;
        }
        return true;
    }

    private void registry(Map<String, String> values, Settings into, String where) {
        String given = values.get("address");
        if (given != null && given.strip().equalsIgnoreCase(FileModel.NO_REGISTRY)) {
            // Dubbo's "no registry": as a file without <registry>; its other attributes are still checked
            values.remove("address");
            values.remove("protocol");
            model.noRegistry = where;
            log.debug("{} address=\"N/A\": no registry", where);
        }
        // Dubbo's protocol="zookeeper" address="host:port": the scheme of an address that has none; a scheme that
        // no registry provider registers is refused with the address, as in address="nope://host:port"
        String protocol = values.remove("protocol");
        if (protocol != null) {
            String address = values.get("address");
            if (address != null && !address.contains("://")) {
                values.put("address", protocol.strip() + "://" + address.strip());
            }
        }
        options(XmlVocabulary.Element.REGISTRY, values, into, where);
    }

    private void protocol(Map<String, String> values, Settings into, String where) {
        String name = values.remove("name");
        if (name != null && !name.strip().equals("dubbo")) {
            attributeProblem("name", new IllegalArgumentException(where + " name=\"" + name + "\" (expected: dubbo, "
                    + "the only one Ferry speaks)"));
        }
        options(XmlVocabulary.Element.PROTOCOL, values, into, where);
    }

    private void service(Map<String, String> values, String where) {
        String type = required(values, "interface", where);
        FileModel.Member declared = null;
        if (type != null) {
            where = file + ":" + locator.getLineNumber() + ": <service interface=\"" + type + "\">";
            String key = FileModel.serviceKey(type, values.get("version"), values.get("group"));
            FileModel.Member existing = model.services.get(key);
            if (existing != null) {
                model.problems.add(new IllegalArgumentException(where + ": declared twice (first at "
                        + existing.firstSeen + "; one service per interface, version and group in a file)"));
            } else {
                declared = new FileModel.Member(type, where);
                model.services.put(key, declared);
            }
        }
        // a service that cannot be declared is still checked, attributes and methods, on a member of its own
        member = declared != null ? declared : new FileModel.Member(type == null ? "?" : type, where);
        String implementation = values.remove("class");
        String ref = values.remove("ref");
        if (implementation != null && ref != null) {
            attributeProblem("ref", new IllegalArgumentException(where + ": both class and ref (expected: one of "
                    + "them)"));
            ref = null;
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
        FileModel.Member declared = null;
        if (id != null) {
            where = file + ":" + locator.getLineNumber() + ": <reference id=\"" + id + "\">";
            FileModel.Member existing = model.references.get(id);
            if (existing != null) {
                attributeProblem("id", new IllegalArgumentException(where + ": the id is taken (first at "
                        + existing.firstSeen + ")"));
            } else {
                declared = new FileModel.Member(id, where);
                model.references.put(id, declared);
            }
        }
        member = declared != null ? declared : new FileModel.Member(id == null ? "?" : id, where);
        member.type = required(values, "interface", where);
        if (member.type == null && declared != null) {
            declared.reported = true; // said here; the bootstrap does not say it again
        }
        member.typeWhere = where;
        memberKind = XmlVocabulary.Element.REFERENCE;
        memberWhere = where;
        options(XmlVocabulary.Element.REFERENCE, values, member.settings, where);
    }

    /** {@code <annotation package="com.acme.a, com.acme.b">}: packages whose @RpcExport classes are exported. */
    private void annotation(Map<String, String> values, String where) {
        String packages = required(values, "package", where);
        for (Map.Entry<String, String> other : values.entrySet()) {
            try {
                dubboAttribute(XmlVocabulary.Element.ANNOTATION, other.getKey(), other.getValue(), where);
            } catch (IllegalArgumentException e) {
                attributeProblem(other.getKey(), e);
            }
        }
        if (packages != null) {
            try {
                model.scans(packages, where + " package");
            } catch (IllegalArgumentException e) {
                attributeProblem("package", e);
            }
        }
    }

    /** A {@code <method>} of the service or reference being read; false when it is not inside one. */
    private boolean method(Attributes attributes) {
        String where = file + ":" + locator.getLineNumber() + ": <method>";
        if (member == null) {
            elementProblem(new IllegalArgumentException(where + " inside <" + open.peek()
                    + "> (expected: inside a <service> or <reference>)"));
            return false;
        }
        Map<String, String> values = attributes(attributes, where);
        String name = required(values, "name", where);
        Settings settings = new Settings(); // checked, and kept only for a method of a name of its own
        if (name != null) {
            where = file + ":" + locator.getLineNumber() + ": <method name=\"" + name + "\"> of "
                    + memberWhere.substring(memberWhere.indexOf('<'));
            if (member.methods.containsKey(name)) {
                attributeProblem("name", new IllegalArgumentException(where + ": declared twice in this "
                        + memberKind.tag));
            } else {
                member.methods.put(name, settings);
            }
        }
        String returns = values.remove("return");
        if (returns != null) {
            try {
                boolean waits = Boolean.TRUE.equals(bool(returns, where + " return"));
                if (memberKind == XmlVocabulary.Element.SERVICE && !waits) {
                    throw new IllegalArgumentException(where + " return=\"" + returns + "\": a consumer's setting "
                            + "(whether a call waits for its answer is the caller's choice): write it on the "
                            + "<reference>'s <method>");
                }
                if (memberKind != XmlVocabulary.Element.SERVICE) {
                    settings.put(Options.ONEWAY, !waits, where);
                }
            } catch (IllegalArgumentException e) {
                attributeProblem("return", e);
            }
        }
        options(XmlVocabulary.Element.METHOD, values, settings, where);
        return true;
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
        for (String other : values.keySet()) {
            attributeProblem(other, new IllegalArgumentException(where + " " + other
                    + ": Ferry reads <bean id class> only (no properties, no constructor arguments)"));
        }
        if (id == null || type == null) {
            return;
        }
        FileModel.Bean before = model.beans.putIfAbsent(id, new FileModel.Bean(id, type, where));
        if (before != null) {
            attributeProblem("id", new IllegalArgumentException(where + ": bean id '" + id + "' is taken (first at "
                    + before.where() + ")"));
        }
    }

    /** The attribute's value, taken out of {@code values}; null, reported, when it is missing or blank. */
    private String required(Map<String, String> values, String attribute, String where) {
        String value = values.remove(attribute);
        if (value == null || value.isBlank()) {
            attributeProblem(attribute, new IllegalArgumentException(where + ": " + attribute + " is missing "
                    + "(expected: " + attribute + "=\"...\")"));
            return null;
        }
        return value.strip();
    }

    /**
     * Every remaining attribute must be an option of the element's scope; the table parses and checks it. Each
     * one in error is reported, and the others are still taken.
     */
    private void options(XmlVocabulary.Element element, Map<String, String> values, Settings into, String where) {
        Map<String, Option<?>> options = element.options();
        for (Map.Entry<String, String> attribute : values.entrySet()) {
            String name = attribute.getKey();
            Option<?> option = options.get(XmlVocabulary.ALIASES.getOrDefault(name, name));
            try {
                if (option == null) {
                    dubboAttribute(element, name, attribute.getValue(), where);
                } else {
                    into.parse(option, XmlVocabulary.dubboValue(option, attribute.getValue()), where, name);
                }
            } catch (IllegalArgumentException e) {
                attributeProblem(name, e);
            }
        }
    }

    /**
     * An attribute that is no option of the element: a Dubbo attribute whose value asks for what Ferry does
     * (taken, with no effect), an id or a use of one (checked once the file is read), or a mistake, with Dubbo's
     * reason when it is Dubbo's and the nearest name when it is not.
     */
    private void dubboAttribute(XmlVocabulary.Element element, String name, String value, String where) {
        XmlVocabulary.Dubbo dubbo = XmlVocabulary.dubbo(element, name);
        if (dubbo == null) {
            throw unknownAttribute(element, name, where);
        }
        // taken only where Dubbo has it (and the schema declares it)
        boolean dubbos = XmlVocabulary.DUBBO_ATTRIBUTES.getOrDefault(element, List.of()).contains(name);
        if (dubbos && XmlVocabulary.ID_REFERENCES.contains(name)) {
            idUses.add(new IdUse(name, value.strip(), where, dubbo));
            return;
        }
        if (dubbos && dubbo.takes(value)) {
            if (name.equals("id") && XmlVocabulary.ID_REFERENCES.contains(element.tag)) {
                ids.put(element.tag, value.strip());
            }
            log.debug("{} {}=\"{}\": what Ferry does, taken with no effect", where, name, value);
            return;
        }
        throw new IllegalArgumentException(where + " " + dubbo.refusal(name, value));
    }

    private static IllegalArgumentException unknownAttribute(XmlVocabulary.Element element, String name,
                                                             String where) {
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
