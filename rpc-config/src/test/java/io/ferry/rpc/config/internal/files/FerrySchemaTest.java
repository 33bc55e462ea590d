package io.ferry.rpc.config.internal.files;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The XSD in the jar is the one the option table makes, so IDEs complete and check what the reader takes. */
class FerrySchemaTest {
    private static final Path SHIPPED = Path.of("src", "main", "resources", XmlVocabulary.XSD_RESOURCE);

    private static final Path SHIPPED_FOR_SPRING = SHIPPED.resolveSibling("ferry-spring.xsd");

    @Test
    void theShippedSchemaIsGeneratedFromTheOptionTable() throws Exception {
        fresh(SHIPPED, XsdWriter.schema());
    }

    @Test
    void theSchemaForSpringIsTooAndLetsEveryValueAndDubbosRefusedElementsThroughForFerrysReader() throws Exception {
        fresh(SHIPPED_FOR_SPRING, XsdWriter.springSchema());
        String spring = XsdWriter.springSchema();
        java.util.regex.Matcher typed = java.util.regex.Pattern.compile("<xs:attribute name=\"([^\"]+)\"( type=\"([^\"]+)\")?")
                .matcher(spring);
        int attributes = 0;
        while (typed.find()) {
            attributes++;
            assertEquals("xs:string", typed.group(3), typed.group(1) + ": Ferry's reader checks the values, not Spring");
        }
        assertTrue(attributes > 100, "found " + attributes);
        for (String refused : XmlVocabulary.UNSUPPORTED_ELEMENTS.keySet()) {
            assertTrue(spring.contains("<xs:element name=\"" + refused + "\">"), refused);
        }
        javax.xml.validation.SchemaFactory.newInstance(javax.xml.XMLConstants.W3C_XML_SCHEMA_NS_URI)
                .newSchema(new javax.xml.transform.stream.StreamSource(new java.io.StringReader(spring)));
    }

    @Test
    void everyAttributeDubboHasIsAnOptionOrStructuralOrHasAReason() {
        for (var entry : XmlVocabulary.DUBBO_ATTRIBUTES.entrySet()) {
            for (String attribute : entry.getValue()) {
                assertTrue(entry.getKey().attributeNames().contains(attribute)
                                || XmlVocabulary.ALIASES.containsKey(attribute)
                                || java.util.Arrays.stream(XmlVocabulary.Element.values())
                                .anyMatch(other -> other.attributeNames().contains(attribute))
                                || XmlVocabulary.dubbo(entry.getKey(), attribute) != null,
                        "<" + entry.getKey().tag + " " + attribute + ">: neither taken nor refused with a reason");
            }
        }
    }

    private static void fresh(Path shipped, String expected) throws Exception {
        if (Boolean.getBoolean("ferry.updateSchema")) {
            Files.createDirectories(shipped.getParent());
            Files.writeString(shipped, expected, StandardCharsets.UTF_8);
            return;
        }
        assertEquals(expected, Files.readString(shipped, StandardCharsets.UTF_8),
                shipped.getFileName() + " is stale: run this test with -Dferry.updateSchema=true");
    }

    @Test
    void theSchemaCompilesWithTheBeansSubset() throws Exception {
        assertNotNull(XmlReader.schema());
    }
}
