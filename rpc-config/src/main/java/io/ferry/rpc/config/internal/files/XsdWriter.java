package io.ferry.rpc.config.internal.files;

import io.ferry.rpc.option.Option;

import java.time.Duration;
import java.util.Locale;

/**
 * Writes {@code ferry.xsd} from the XML vocabulary and the option table, so that what an IDE completes and checks
 * is exactly what the reader takes. Values are typed (numbers with their ranges, enums with their names) and every
 * attribute carries its option's documentation and default.
 */
public final class XsdWriter {
    private XsdWriter() {
    }

    /** The schema's text; {@code FerrySchemaTest} compares it with the shipped resource. */
    public static String schema() {
        return schema(false);
    }

    /**
     * The schema Spring validates its XML files with ({@code ferry-spring.xsd}): the same elements and attributes,
     * but every value a string, any attribute let through, any of Ferry's elements inside another, and Dubbo's
     * elements that Ferry refuses declared, so that Ferry's reader, which reads the file when the context builds
     * its Ferry, reports every wrong value, unknown or refused attribute and refused element at once, with its
     * reason, rather than Spring's parser stopping at the first with the schema's words.
     */
    public static String springSchema() {
        return schema(true);
    }

    private static String schema(boolean forSpring) {
        StringBuilder x = new StringBuilder();
        x.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        x.append("<!-- Generated from Ferry's option table (io.ferry.rpc.config.option.Options): do not edit.\n");
        x.append("     Regenerate: mvn -pl rpc-config test -Dtest=FerrySchemaTest -Dferry.updateSchema=true -->\n");
        if (forSpring) {
            x.append("<!-- For Spring contexts: any value and attribute passes here, and Dubbo's elements that Ferry "
                    + "refuses;\n     Ferry's reader checks them all at once, with its own messages. -->\n");
        }
        x.append("<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xmlns=\"").append(XmlVocabulary.NAMESPACE)
                .append("\"\n           targetNamespace=\"").append(XmlVocabulary.NAMESPACE)
                .append("\" elementFormDefault=\"qualified\" attributeFormDefault=\"unqualified\">\n\n");
        // a Spring context resolves ${...} before Ferry reads a value, so its schema must let one through; Ferry's
        // own reader refuses placeholders with a message of its own before the schema has its say
        x.append("  <xs:simpleType name=\"placeholder\">\n");
        doc(x, "    ", "a placeholder, ${name}, that a Spring context resolves (Ferry's own reader refuses it)");
        x.append("    <xs:restriction base=\"xs:string\"><xs:pattern value=\".*\\$\\{.+\\}.*\"/></xs:restriction>\n"
                + "  </xs:simpleType>\n\n");
        x.append("  <xs:simpleType name=\"duration\">\n");
        doc(x, "    ", "milliseconds (Dubbo's unit), or a number with ms, s, m or h");
        x.append("    <xs:union memberTypes=\"placeholder\"><xs:simpleType><xs:restriction base=\"xs:string\">")
                .append("<xs:pattern value=\"\\s*\\+?[0-9]+\\s*([mM][sS]|[sSmMhH])?\\s*\"/>"
                + "</xs:restriction></xs:simpleType></xs:union>\n  </xs:simpleType>\n\n");
        // values are read as Ferry reads them everywhere, case aside; the enumerations are there for completion
        x.append("  <xs:simpleType name=\"flag\">\n");
        doc(x, "    ", "true or false, in any case");
        x.append("    <xs:union memberTypes=\"xs:boolean placeholder\"><xs:simpleType><xs:restriction base=\"xs:string\">"
                + "<xs:pattern value=\"\\s*([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])\\s*\"/></xs:restriction>"
                + "</xs:simpleType></xs:union>\n  </xs:simpleType>\n\n");
        x.append("  <xs:simpleType name=\"word\">\n    <xs:restriction base=\"xs:string\">"
                + "<xs:pattern value=\"\\s*[A-Za-z]+\\s*\"/></xs:restriction>\n  </xs:simpleType>\n\n");
        x.append("  <xs:element name=\"config\">\n");
        doc(x, "    ", "A Ferry bootstrap: what it exports and what it references. Load it with Ferry.fromXml.");
        x.append("    <xs:complexType>\n      <xs:choice minOccurs=\"0\" maxOccurs=\"unbounded\">\n");
        for (XmlVocabulary.Element element : XmlVocabulary.Element.values()) {
            if (element != XmlVocabulary.Element.METHOD) {
                x.append("        <xs:element ref=\"").append(element.tag).append("\"/>\n");
            }
        }
        x.append("      </xs:choice>\n    </xs:complexType>\n  </xs:element>\n");
        for (XmlVocabulary.Element element : XmlVocabulary.Element.values()) {
            element(x, element, forSpring);
        }
        if (forSpring) {
            // Spring hands these to Ferry's namespace handler, and Ferry's reader refuses each with its reason
            new java.util.TreeMap<>(XmlVocabulary.UNSUPPORTED_ELEMENTS).forEach((tag, reason) -> {
                x.append("\n  <xs:element name=\"").append(tag).append("\">\n");
                doc(x, "    ", "Dubbo's; not supported by Ferry: " + reason);
                x.append("    <xs:complexType>\n      <xs:sequence><xs:any processContents=\"skip\" minOccurs=\"0\" "
                        + "maxOccurs=\"unbounded\"/></xs:sequence>\n      <xs:anyAttribute processContents=\"skip\"/>\n"
                        + "    </xs:complexType>\n  </xs:element>\n");
            });
        }
        x.append("</xs:schema>\n");
        return x.toString();
    }

    private static void element(StringBuilder x, XmlVocabulary.Element element, boolean forSpring) {
        x.append("\n  <xs:element name=\"").append(element.tag).append("\">\n");
        doc(x, "    ", element.doc);
        x.append("    <xs:complexType>\n");
        if (forSpring) {
            // what is where is Ferry's reader's to say: a <method> outside a service, a Dubbo <parameter>, ...
            x.append("      <xs:sequence><xs:any namespace=\"##targetNamespace\" processContents=\"lax\" "
                    + "minOccurs=\"0\" maxOccurs=\"unbounded\"/></xs:sequence>\n");
        } else if (element == XmlVocabulary.Element.SERVICE || element == XmlVocabulary.Element.REFERENCE) {
            x.append("      <xs:sequence><xs:element ref=\"method\" minOccurs=\"0\" maxOccurs=\"unbounded\"/>"
                    + "</xs:sequence>\n");
        }
        for (XmlVocabulary.Structural s : element.structural) {
            x.append("      <xs:attribute name=\"").append(s.name()).append("\" type=\"xs:string\"")
                    .append(s.required() ? " use=\"required\"" : "").append(">\n");
            doc(x, "        ", s.doc());
            x.append("      </xs:attribute>\n");
        }
        element.options().forEach((attribute, option) -> {
            x.append("      <xs:attribute name=\"").append(attribute).append("\"");
            String simpleType = forSpring ? "xs:string" : namedType(option);
            if (simpleType != null) {
                x.append(" type=\"").append(simpleType).append("\">\n");
                doc(x, "        ", documentation(option));
            } else {
                x.append(">\n");
                doc(x, "        ", documentation(option));
                inlineType(x, option);
            }
            x.append("      </xs:attribute>\n");
        });
        XmlVocabulary.ALIASES.entrySet().stream().sorted(java.util.Map.Entry.comparingByKey()).forEach(alias -> {
            Option<?> option = element.options().get(alias.getValue());
            if (option != null && XmlVocabulary.DUBBO_ATTRIBUTES.getOrDefault(element, java.util.List.of())
                    .contains(alias.getKey())) {
                x.append("      <xs:attribute name=\"").append(alias.getKey()).append("\" type=\"xs:string\">\n");
                doc(x, "        ", "Dubbo's spelling of " + alias.getValue() + ": " + documentation(option));
                x.append("      </xs:attribute>\n");
            }
        });
        for (String dubbo : XmlVocabulary.dubboTaken(element)) {
            XmlVocabulary.Dubbo d = XmlVocabulary.dubbo(element, dubbo);
            x.append("      <xs:attribute name=\"").append(dubbo).append("\" type=\"xs:string\">\n");
            doc(x, "        ", "Dubbo's: " + (XmlVocabulary.ID_REFERENCES.contains(dubbo)
                    ? "taken, with no effect, when it names the file's <" + dubbo + "> by its id; else not supported "
                    + "by Ferry: " + d.reason() : d.taken().contains("*") ? "taken, with no effect (" + d.reason() + ")"
                    : "taken, with no effect, as " + d.takenText() + "; else not supported by Ferry: " + d.reason()));
            x.append("      </xs:attribute>\n");
        }
        if (forSpring) {
            x.append("      <xs:anyAttribute processContents=\"skip\"/>\n");
        }
        x.append("    </xs:complexType>\n  </xs:element>\n");
    }

    private static String documentation(Option<?> option) {
        String doc = option.doc() + " (default: " + option.defaultText()
                + (option.unit().isEmpty() ? "" : " " + option.unit()) + ")";
        return option.name().equals("oneway") ? "false: " + doc : doc;
    }

    private static String namedType(Option<?> option) {
        if (option.type() == Duration.class) {
            return "duration";
        }
        if (option.type() == Boolean.class) {
            return "flag";
        }
        if (option.type() == String.class) {
            return "xs:string";
        }
        return null;
    }

    private static void inlineType(StringBuilder x, Option<?> option) {
        x.append("        <xs:simpleType>\n");
        if (option.type().isEnum()) {
            x.append("          <xs:union memberTypes=\"word placeholder\"><xs:simpleType>"
                    + "<xs:restriction base=\"xs:string\">\n");
            for (Object constant : option.type().getEnumConstants()) {
                x.append("            <xs:enumeration value=\"")
                        .append(((Enum<?>) constant).name().toLowerCase(Locale.ROOT)).append("\"/>\n");
            }
            x.append("          </xs:restriction></xs:simpleType></xs:union>\n");
        } else {
            x.append("          <xs:union memberTypes=\"placeholder\">");
            for (String dubbo : XmlVocabulary.dubboValues(option)) {
                // Dubbo's value for what Ferry writes otherwise (port="-1": a free port, Ferry's 0)
                x.append("<xs:simpleType><xs:restriction base=\"xs:string\"><xs:enumeration value=\"").append(dubbo)
                        .append("\"/></xs:restriction></xs:simpleType>");
            }
            x.append("<xs:simpleType><xs:restriction base=\"")
                    .append(option.type() == Long.class ? "xs:long" : "xs:int").append("\">");
            if (option.min() != Long.MIN_VALUE) {
                x.append("<xs:minInclusive value=\"").append(option.min()).append("\"/>");
            }
            if (option.max() != Long.MAX_VALUE) {
                x.append("<xs:maxInclusive value=\"").append(option.max()).append("\"/>");
            }
            x.append("</xs:restriction></xs:simpleType></xs:union>\n");
        }
        x.append("        </xs:simpleType>\n");
    }

    private static void doc(StringBuilder x, String indent, String text) {
        x.append(indent).append("<xs:annotation><xs:documentation>").append(escape(text))
                .append("</xs:documentation></xs:annotation>\n");
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
