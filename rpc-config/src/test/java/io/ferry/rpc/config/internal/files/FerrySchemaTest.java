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

    @Test
    void theShippedSchemaIsGeneratedFromTheOptionTable() throws Exception {
        String expected = XsdWriter.schema();
        if (Boolean.getBoolean("ferry.updateSchema")) {
            Files.createDirectories(SHIPPED.getParent());
            Files.writeString(SHIPPED, expected, StandardCharsets.UTF_8);
            return;
        }
        assertEquals(expected, Files.readString(SHIPPED, StandardCharsets.UTF_8),
                "ferry.xsd is stale: run this test with -Dferry.updateSchema=true");
    }

    @Test
    void theSchemaCompilesWithTheBeansSubset() throws Exception {
        assertNotNull(XmlReader.schema());
    }
}
