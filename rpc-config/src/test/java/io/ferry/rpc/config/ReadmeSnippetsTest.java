package io.ferry.rpc.config;

import org.junit.jupiter.api.Test;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's code, compiled against this build, so that what a new user copies cannot drift from the API. The
 * first Java block declares the service; every later one is a method body using it. XML blocks must be
 * well-formed.
 */
class ReadmeSnippetsTest {
    private static final Pattern BLOCK = Pattern.compile("```(java|xml)\\n(.*?)```", Pattern.DOTALL);

    private static List<String> blocks(String language) throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        List<String> found = new ArrayList<>();
        Matcher m = BLOCK.matcher(readme);
        while (m.find()) {
            if (m.group(1).equals(language)) {
                found.add(m.group(2));
            }
        }
        return found;
    }

    @Test
    void everyJavaSnippetCompiles() throws Exception {
        List<String> java = blocks("java");
        assertTrue(java.size() >= 4, "found " + java.size() + " Java blocks");
        StringBuilder source = new StringBuilder("""
                import io.ferry.rpc.*;
                import io.ferry.rpc.cluster.*;
                import io.ferry.rpc.config.*;
                import io.ferry.rpc.config.extension.*;
                import io.ferry.rpc.config.observation.*;
                import io.micrometer.core.instrument.MeterRegistry;
                import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
                import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
                import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
                import io.micrometer.observation.ObservationRegistry;
                import java.time.Duration;
                import java.util.UUID;
                import java.util.concurrent.CompletableFuture;

                class ReadmeSnippets {
                """);
        source.append(java.get(0).replace("public interface ", "public static interface ")
                .replace("public class ", "public static class "));
        for (int i = 1; i < java.size(); i++) {
            source.append("\nvoid block").append(i).append("() throws Exception {\n").append(java.get(i))
                    .append("\n}\n");
        }
        source.append("}\n");

        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Path out = Files.createTempDirectory("readme-snippets");
        JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///ReadmeSnippets.java"),
                JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        boolean compiled = compiler.getTask(null, null, diagnostics, List.of("-proc:none", "-d", out.toString(),
                "-classpath", System.getProperty("java.class.path")), null, List.of(file)).call();
        StringBuilder errors = new StringBuilder();
        diagnostics.getDiagnostics().forEach(d -> errors.append(d.getLineNumber()).append(": ")
                .append(d.getMessage(null)).append('\n'));
        assertTrue(compiled, "the README's Java does not compile:\n" + errors + "\n" + source);
    }

    @Test
    void everyXmlSnippetIsWellFormed() throws Exception {
        List<String> xml = blocks("xml");
        assertFalse(xml.isEmpty());
        for (String block : xml) {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.newDocumentBuilder().parse(new ByteArrayInputStream(block.getBytes(StandardCharsets.UTF_8)));
        }
    }
}
