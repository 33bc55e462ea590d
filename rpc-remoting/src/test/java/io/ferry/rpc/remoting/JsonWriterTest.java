package io.ferry.rpc.remoting;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class JsonWriterTest {
    @Test
    void nestsWithCommasInTheRightPlaces() {
        String json = new JsonWriter().beginObject().field("a", 1).name("list").beginArray().value("x").value(true)
                .beginObject().endObject().value((String) null).endArray().field("b", 2.5).endObject().json();
        assertEquals("{\"a\":1,\"list\":[\"x\",true,{},null],\"b\":2.5}", json);
    }

    @Test
    void escapesEveryStringWhateverItHolds() {
        String nasty = "q\"b\\s/n\nr\rt\tb\bf\f" + (char) 0 + (char) 0x1f + (char) 0x7f + "\u2028\u2029</script>&";
        assertEquals("{\"k\\\"\":\"q\\\"b\\\\s/n\\nr\\rt\\tb\\bf\\f\\u0000\\u001f\\u007f\\u2028\\u2029"
                        + "\\u003c/script\\u003e\\u0026\"}",
                new JsonWriter().beginObject().field("k\"", nasty).endObject().json());
    }

    @Test
    void keepsSurrogatePairsAndEscapesLoneHalves() {
        String pair = "\uD83D\uDE00";
        assertEquals("[\"" + pair + "\",\"\\ud83d\",\"\\ude00x\",\"a\\ud83d" + pair + "\"]",
                new JsonWriter().beginArray().value(pair).value("\uD83D").value("\uDE00x")
                        .value("a\uD83D\uD83D\uDE00").endArray().json());
    }

    @Test
    void writesNumbersJsonCannotHoldAsNull() {
        assertEquals("[null,null,-3,0.25]", new JsonWriter().beginArray().value(Double.NaN)
                .value(Double.POSITIVE_INFINITY).value(-3).value(0.25).endArray().json());
    }

    @Test
    void refusesADocumentLeftOpen() {
        JsonWriter open = new JsonWriter().beginObject().name("a").beginArray();
        assertThrows(IllegalStateException.class, open::json);
        assertEquals("{\"a\":[", open.toString());
        assertThrows(IllegalStateException.class, () -> new JsonWriter().endObject());
    }
}
