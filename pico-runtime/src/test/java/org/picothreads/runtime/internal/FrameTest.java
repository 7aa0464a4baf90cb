package org.picothreads.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** How a carrier's frame packs the saved activations of a thread into the thread's two arrays, and reads them back. */
class FrameTest {
    private static final float ODD_FLOAT = Float.intBitsToFloat(0x7FC0_0123);
    private static final double ODD_DOUBLE = Double.longBitsToDouble(0x7FF8_0000_0000_0ABCL);

    /** The counts a capture handler passes: references and primitives, then those of the call's arguments. */
    private static long counts(int references, int primitives, int argumentReferences, int argumentPrimitives) {
        return (long) references << 48 | (long) primitives << 32 | (long) argumentReferences << 16
                | argumentPrimitives;
    }

    private static SavedMethod method(String name) {
        return SavedMethod.of(FrameTest.class, "org/picothreads/runtime/internal/FrameTest." + name + "()V");
    }

    /** Saves, innermost first, an activation of {@code inner} (with its call's arguments) and one of {@code outer}. */
    private static void captureTwoActivations(Frame frame, Object receiver, SavedMethod inner, SavedMethod outer) {
        frame.beginCaptureBlock();
        frame.beginCapture(receiver, inner, 3, counts(2, 5, 1, 1));
        assertTrue(frame.savesArguments(), "the innermost activation saves its call's arguments");
        frame.pushInt(7);
        frame.pushLong(Long.MIN_VALUE + 5);
        frame.pushObject("first");
        frame.pushFloat(ODD_FLOAT);
        frame.pushDouble(ODD_DOUBLE);
        frame.pushInt(-1);
        frame.pushObject(null);
        frame.pushObject("argument");
        frame.pushLong(-2);
        frame.beginCapture(null, outer, SiteLayout.HOLDS_MONITORS | 5, counts(1, 2, 0, 0));
        assertFalse(frame.savesArguments(), "an outer activation continues after its call");
        frame.pushDouble(-0.0);
        frame.pushObject("second");
        frame.pushFloat(1.5f);
    }

    @Test
    void values_of_every_type_come_back_from_a_restore_in_the_order_they_were_saved_with_their_exact_bits() {
        Task task = new Task();
        Frame frame = new Frame();
        SavedMethod inner = method("roundTripInner");
        SavedMethod outer = method("roundTripOuter");
        Object receiver = new Object();
        frame.attach(task);
        captureTwoActivations(frame, receiver, inner, outer);
        assertEquals(2, frame.endCapture());
        frame.detach();

        frame.attach(task);
        assertTrue(frame.hasSavedActivations());
        assertEquals(inner.key, frame.nextMethod(), "the innermost activation is restored first");
        assertSame(FrameTest.class, frame.nextOwner());
        assertSame(receiver, frame.nextReceiver());
        assertFalse(frame.beginRestore(outer.key), "another method's activation is not restored");
        assertTrue(frame.beginRestore(inner.key));
        assertEquals(2 * 3, frame.resumePoint(), "the innermost activation invokes its call again");
        assertEquals(7, frame.popInt());
        assertEquals(Long.MIN_VALUE + 5, frame.popLong());
        assertEquals("first", frame.popObject());
        assertEquals(Float.floatToRawIntBits(ODD_FLOAT), Float.floatToRawIntBits(frame.popFloat()));
        assertEquals(Double.doubleToRawLongBits(ODD_DOUBLE), Double.doubleToRawLongBits(frame.popDouble()));
        assertEquals(-1, frame.popInt());
        assertNull(frame.popObject());
        assertEquals("argument", frame.popObject());
        assertEquals(-2L, frame.popLong());

        assertEquals(outer.key, frame.nextMethod());
        assertNull(frame.nextReceiver(), "a static method's activation has no receiver");
        assertTrue(frame.beginRestore(outer.key));
        assertEquals(2 * 5 + 1, frame.resumePoint(), "an outer activation continues after its call");
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(frame.popDouble()));
        assertEquals("second", frame.popObject());
        assertEquals(1.5f, frame.popFloat());
        assertFalse(frame.hasSavedActivations());
        frame.detach();
    }

    @Test
    void a_capture_leaves_the_threads_arrays_exactly_as_large_as_its_values_with_ints_and_floats_in_one_slot() {
        Task task = new Task();
        Frame frame = new Frame();
        frame.attach(task);
        captureTwoActivations(frame, new Object(), method("exactInner"), method("exactOuter"));
        frame.endCapture();
        frame.detach();

        // inner: 3 references, its receiver, its layout; outer: 1 reference, its layout
        assertEquals(3 + 1 + 1 + 1 + 1, task.savedReferences.length);
        // inner: int, long, float, double, int, long = 1 + 2 + 1 + 2 + 1 + 2; outer: double, float = 2 + 1
        assertEquals(9 + 3, task.savedPrimitives.length);
        assertEquals(task.savedReferences.length, task.savedReferenceTop);
        assertEquals(task.savedPrimitives.length, task.savedPrimitiveTop);
    }

    @Test
    void suspending_again_at_the_same_depth_keeps_the_threads_arrays_and_a_deeper_capture_sizes_new_ones_exactly() {
        Task task = new Task();
        Frame frame = new Frame();
        SavedMethod inner = method("againInner");
        SavedMethod outer = method("againOuter");
        frame.attach(task);
        captureTwoActivations(frame, "receiver", inner, outer);
        frame.endCapture();
        frame.detach();
        Object[] references = task.savedReferences;
        int[] primitives = task.savedPrimitives;

        // the innermost activation is restored, runs and is captured again at the same call site
        frame.attach(task);
        assertTrue(frame.beginRestore(inner.key));
        frame.beginCaptureBlock();
        frame.beginCapture("receiver", inner, 3, counts(2, 5, 1, 1));
        frame.pushInt(8);
        frame.pushLong(8);
        frame.pushObject("again");
        frame.pushFloat(8);
        frame.pushDouble(8);
        frame.pushInt(8);
        frame.pushObject("again");
        frame.pushObject("argument");
        frame.pushLong(8);
        assertEquals(1, frame.endCapture());
        frame.detach();
        assertSame(references, task.savedReferences, "no new array at the same depth");
        assertSame(primitives, task.savedPrimitives, "no new array at the same depth");
        assertEquals(references.length, task.savedReferenceTop);

        // a deeper capture: the outer activation stays saved and three more are appended above it
        frame.attach(task);
        assertTrue(frame.beginRestore(inner.key));
        frame.beginCaptureBlock();
        SavedMethod deeper = method("againDeeper");
        for (int activation = 0; activation < 3; activation++) {
            frame.beginCapture(null, deeper, 9, counts(1, 1, 1, 0));
            frame.pushObject(activation);
            frame.pushLong(activation);
            if (activation == 0) {
                frame.pushObject("argument of the innermost");
            }
        }
        assertEquals(3, frame.endCapture());
        frame.detach();
        assertNotSame(references, task.savedReferences);
        // outer: 1 + layout; deeper: innermost 2 + layout, the two others 1 + layout each
        assertEquals(2 + 3 + 2 + 2, task.savedReferences.length);
        assertEquals(task.savedReferences.length, task.savedReferenceTop);
        // outer: double and float (3 slots); deeper: a long each (6 slots), within the 12 the array has
        assertEquals(3 + 6, task.savedPrimitiveTop);
        assertSame(primitives, task.savedPrimitives, "an array with room enough is kept");

        frame.attach(task);
        for (int activation = 0; activation < 3; activation++) {
            assertTrue(frame.beginRestore(deeper.key));
            assertEquals(activation == 0 ? 2 * 9 : 2 * 9 + 1, frame.resumePoint());
            assertEquals(activation, frame.popObject());
            assertEquals(activation, frame.popLong());
        }
        assertTrue(frame.beginRestore(outer.key));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(frame.popDouble()));
        assertEquals("second", frame.popObject());
        assertEquals(1.5f, frame.popFloat());
        frame.detach();
    }

    @Test
    void a_capture_that_fails_before_reaching_the_driver_leaves_the_saved_stack_as_it_was() {
        Task task = new Task();
        Frame frame = new Frame();
        SavedMethod inner = method("failedInner");
        frame.attach(task);
        captureTwoActivations(frame, "receiver", inner, method("failedOuter"));
        frame.endCapture();
        frame.detach();
        Object[] references = task.savedReferences.clone();

        frame.attach(task);
        frame.beginCaptureBlock();
        frame.beginCapture(null, method("failedAbove"), 1, counts(1, 0, 0, 0));
        frame.pushObject("never saved");
        frame.detach();

        assertEquals(references.length, task.savedReferenceTop);
        for (int index = 0; index < references.length; index++) {
            assertSame(references[index], task.savedReferences[index], "slot " + index);
        }
        frame.attach(task);
        assertEquals(inner.key, frame.nextMethod());
        frame.detach();
    }

    @Test
    void an_activation_whose_values_take_other_slots_than_the_first_at_its_site_is_refused() {
        Task task = new Task();
        Frame frame = new Frame();
        SavedMethod method = method("refused");
        frame.attach(task);
        frame.beginCaptureBlock();
        frame.beginCapture(null, method, 4, counts(0, 1, 0, 0));
        frame.pushInt(1);
        frame.endCapture();
        frame.detach();

        frame.attach(task);
        assertTrue(frame.beginRestore(method.key));
        frame.popInt();
        frame.beginCaptureBlock();
        frame.beginCapture(null, method, 4, counts(0, 1, 0, 0));
        frame.pushLong(1);
        IllegalStateException refused = assertThrows(IllegalStateException.class, frame::endCapture);
        assertTrue(refused.getMessage().contains("saved 2 primitive slots at site 4, where it saved 1 before"),
                refused.getMessage());
        frame.detach();
    }
}
