package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.demo.ManySleepers;
import org.picothreads.targets.manythreads.TenThousandSleepers;
import org.picothreads.transform.testing.TargetRunner;
import org.picothreads.transform.testing.TransformingClassLoader;
import org.picothreads.transform.testing.ValidationAssertions;

/** Many threads at once: ten thousand sleepers, and the demo program's main. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ManyThreadsTest {

    @Test
    void ten_thousand_sleeping_threads_give_the_same_sum_transformed_and_untransformed() throws Exception {
        assertSameResult(TenThousandSleepers.class);
    }

    @Test
    void the_demo_program_prints_the_same_two_lines_transformed_and_untransformed() throws Exception {
        String[] arguments = {"2000", "5"};
        String expected = "threads: 2000" + System.lineSeparator() + "checksum: 1999000" + System.lineSeparator();

        assertEquals(expected, printedByMain(ManySleepers.class, arguments));
        assertSameResult(ManySleepers.class.getName(),
                () -> printedByMain(ManySleepers.class, arguments),
                () -> printedByMain(TransformingClassLoader.forPackages(ManySleepers.class.getPackageName() + ".")
                        .transformedCopyOf(ManySleepers.class), arguments),
                ValidationAssertions.Pinning.FORBIDDEN);
    }

    /** Runs a copy of the demo's main and returns what it printed to System.out. */
    private static String printedByMain(Class<?> program, String[] arguments) throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            TargetRunner.callStatic(program, "main", new Class<?>[] {String[].class}, (Object) arguments.clone());
        } finally {
            System.setOut(original);
        }
        return printed.toString(StandardCharsets.UTF_8);
    }
}
