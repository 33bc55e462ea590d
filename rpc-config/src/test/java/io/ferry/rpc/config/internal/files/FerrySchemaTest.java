package io.ferry.rpc.config.internal.files;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** The XSD in the jar is the one the option table makes, so IDEs complete and check what the reader takes. */
class FerrySchemaTest {
    private static final Path SHIPPED = Path.of("src", "main", "resources", XmlVocabulary.XSD_RESOURCE);

    private static final Path SHIPPED_FOR_SPRING = SHIPPED.resolveSibling("ferry-spring.xsd");

    @Test
    void theShippedSchemaIsGeneratedFromTheOptionTable() throws Exception {
        fresh(SHIPPED, XsdWriter.schema());
    }

    @Test
    void theSchemaForSpringIsTooAndDiffersOnlyInLettingAttributesThrough() throws Exception {
        fresh(SHIPPED_FOR_SPRING, XsdWriter.springSchema());
        assertEquals(XsdWriter.schema().lines().count() + XmlVocabulary.Element.values().length + 1,
                XsdWriter.springSchema().lines().count());
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
