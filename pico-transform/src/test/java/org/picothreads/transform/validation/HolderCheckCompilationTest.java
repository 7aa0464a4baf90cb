package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.picothreads.targets.compilation.HotRegions;
import org.picothreads.transform.testing.TransformedChildJvm;

/**
 * The suspended-holder check keeps every monitor balanced as HotSpot's JIT compilers require: the rewritten
 * regions are compiled by C2 (tier 4), never refused.
 */
class HolderCheckCompilationTest {
    @Test
    void regions_with_the_suspended_holder_check_are_compiled_by_c2_and_count_exactly() throws Exception {
        TransformedChildJvm.Result run = TransformedChildJvm.run(HotRegions.class,
                List.of("-Xbatch", "-XX:+PrintCompilation"));

        assertEquals(0, run.exitCode(), run::errors);
        String output = run.output();
        assertTrue(output.contains("counter=2200001\n"), () -> output.lines().filter(line -> line.startsWith("counter"))
                .toList().toString());
        for (String method : List.of("increment", "incrementInMethod", "incrementNested")) {
            Pattern compiledByC2 = Pattern.compile("(?m)^.*\\s4\\s+" + Pattern.quote(HotRegions.class.getName()
                    + "::" + method + " ") + ".*$");
            assertTrue(compiledByC2.matcher(output).find(), method + " is never compiled by C2");
        }
        List<String> refused = output.lines()
                .filter(line -> line.contains("not compilable") || line.contains("COMPILE SKIPPED")).toList();
        assertEquals(List.of(), refused, "the JIT refused methods");
    }
}
