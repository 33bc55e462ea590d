package io.ferry.rpc.config.internal.files;

import io.ferry.rpc.config.fixtures.GeneratedSection;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The README's ferry.xml examples pass the reader, and its list of refused Dubbo attributes is the reader's. */
class ReadmeXmlTest {
    private static final Path README = Path.of("..", "README.md");

    @Test
    void everyFerryXmlExampleInTheReadmeIsValid() throws Exception {
        Matcher block = Pattern.compile("```xml\\n(.*?)```", Pattern.DOTALL)
                .matcher(Files.readString(README, StandardCharsets.UTF_8));
        int checked = 0;
        while (block.find()) {
            if (block.group(1).contains(XmlVocabulary.NAMESPACE)) {
                XmlReader.read("README.md", new ByteArrayInputStream(block.group(1).getBytes(StandardCharsets.UTF_8)));
                checked++;
            }
        }
        assertTrue(checked >= 2, "found " + checked + " ferry.xml examples");
    }

    @Test
    void theReadmeListsTheRefusedDubboAttributesAsTheReaderRefusesThem() throws Exception {
        GeneratedSection.check(README, "unsupported", XmlVocabulary.unsupportedMarkdown(), "ferry.updateReadme");
    }
}
