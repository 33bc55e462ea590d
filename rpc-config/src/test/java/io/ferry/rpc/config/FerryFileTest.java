package io.ferry.rpc.config;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A host's XML file read through {@link FerryFile}: the host's elements skipped, its placeholders resolved. */
class FerryFileTest {
    private static final UnaryOperator<String> PLACEHOLDERS = value -> value.replace("${app.name}", "shop")
            .replace("${app.owner}", "ann");

    private static FerryFile xml(String body) {
        String file = "<beans xmlns=\"http://www.springframework.org/schema/beans\"\n"
                + "       xmlns:ferry=\"http://ferry.io/schema/ferry\">\n" + body + "</beans>\n";
        return FerryFile.xml("hosted.xml", new ByteArrayInputStream(file.getBytes(StandardCharsets.UTF_8)),
                PLACEHOLDERS);
    }

    @Test
    void theFerryElementsOfAHostsFileAreReadAndTheRestSkipped() {
        FerryFile file = xml("""
                  <bean id="x" class="com.acme.X"><property name="a" value="b"/></bean>
                  <ferry:application name="${app.name}" owner="${app.owner}"/>
                  <ferry:annotation package="com.acme.service"/>
                  <ferry:reference id="demo" interface="io.ferry.rpc.config.fixtures.DemoService"/>
                """);
        assertEquals(Map.of("demo", "io.ferry.rpc.config.fixtures.DemoService"), file.referenceInterfaces());
        assertEquals(List.of("com.acme.service"), file.annotationPackages(), "for the host to scan");
        assertEquals("FerryFile{references={demo=io.ferry.rpc.config.fixtures.DemoService}, services=[], "
                + "annotationPackages=[com.acme.service]}", file.toString());
    }

    @Test
    void everyMistakeOfAHostsFileIsReportedAtOnce() {
        assertEquals(String.join("\n",
                "hosted.xml:5: <consumer> timout: no such attribute (did you mean timeout?)",
                "hosted.xml:6: <reference> inside <bean> (line 6): not read (expected: Ferry's elements at the top "
                        + "level of <beans>, not nested in the host's elements)",
                "hosted.xml:7: <reference id=\"users\">: class com.acme.Missing (expected: a class on the class "
                        + "path)"),
                assertThrows(IllegalArgumentException.class, () -> xml("""
                          <bean id="x" class="com.acme.X"><property name="a" value="b"/></bean>
                          <ferry:application name="${app.name}"/>
                          <ferry:consumer timout="100"/>
                          <bean id="y" class="com.acme.Y"><ferry:reference id="n" interface="com.acme.N"/></bean>
                          <ferry:reference id="users" interface="com.acme.Missing"/>
                        """)).getMessage());
    }
}
