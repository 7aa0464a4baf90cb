package org.picothreads.transform.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The redirect table for a program without pico-net: every entry of the full table but those leading to pico-net. */
class RedirectsWithoutNetTest {
    private final Redirects full = Redirects.table(true);
    private final Redirects withoutNet = Redirects.table(false);

    @Test
    void the_table_without_pico_net_keeps_every_replaced_type_that_is_not_pico_net_s() {
        Map<String, String> expected = full.replacedTypes().entrySet().stream()
                .filter(entry -> !entry.getValue().startsWith(RuntimeNames.NET_PACKAGE))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        assertEquals(expected, withoutNet.replacedTypes());
        assertTrue(full.replacedTypes().size() > expected.size(), "the full table replaces java.io types");
        assertEquals("org/picothreads/runtime/concurrent/PicoPriorityBlockingQueue",
                withoutNet.replacementType("java/util/concurrent/PriorityBlockingQueue"));
        assertEquals(null, withoutNet.replacementType("java/io/BufferedReader"));
    }

    @Test
    void the_table_without_pico_net_keeps_every_method_redirect_that_does_not_lead_to_pico_net() {
        Set<Redirects.Redirect> expected = full.allTargets().stream()
                .filter(target -> !target.owner().startsWith(RuntimeNames.NET_PACKAGE)).collect(Collectors.toSet());
        assertEquals(expected, new HashSet<>(withoutNet.allTargets()));
        for (Redirects.Redirect target : expected) {
            assertEquals(full.isBlockingTarget(target.owner(), target.name(), target.descriptor()),
                    withoutNet.isBlockingTarget(target.owner(), target.name(), target.descriptor()), target.toString());
        }
        assertTrue(full.allTargets().stream().anyMatch(target -> target.owner().startsWith(RuntimeNames.NET_PACKAGE)));
    }
}
