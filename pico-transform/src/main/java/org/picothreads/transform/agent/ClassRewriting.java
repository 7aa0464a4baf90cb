package org.picothreads.transform.agent;

import java.util.function.Predicate;
import org.picothreads.transform.ClassInput;
import org.picothreads.transform.PicoTransformer;
import org.picothreads.transform.TransformException;
import org.picothreads.transform.TransformResult;

/**
 * The calls the agent makes into the transformer as each class loads, {@link PicoTransformer.Loading#transform}
 * above all, as a function it can be given.
 */
@FunctionalInterface
interface ClassRewriting {
    /** Transforms one class as it loads. */
    TransformResult rewrite(ClassInput loading) throws TransformException;

    /**
     * The class's binary name when it uses sockets without pico-net, as
     * {@link PicoTransformer.Loading#socketUserWithoutPicoNet}; a rewriting given as a function alone knows of none.
     */
    default String socketUserWithoutPicoNet(ClassInput loading) {
        return null;
    }

    /**
     * Both calls made on the transformer's {@link PicoTransformer.Loading} for {@code program}, set up when the first
     * class needs it (a class path that cannot be read then fails each class, which loads unchanged).
     */
    static ClassRewriting whenFirstNeeded(PicoTransformer transformer, Predicate<String> program) {
        return new ClassRewriting() {
            /** The rewriting, once a class needed it. */
            private ClassRewriting loading;

            private synchronized ClassRewriting loading() throws TransformException {
                if (loading == null) {
                    loading = by(transformer.forLoading(program));
                }
                return loading;
            }

            @Override
            public TransformResult rewrite(ClassInput input) throws TransformException {
                return loading().rewrite(input);
            }

            @Override
            public String socketUserWithoutPicoNet(ClassInput input) {
                try {
                    return loading().socketUserWithoutPicoNet(input);
                } catch (TransformException unreadable) {
                    return null;
                }
            }
        };
    }

    /** Both calls made on {@code loading}. */
    static ClassRewriting by(PicoTransformer.Loading loading) {
        return new ClassRewriting() {
            @Override
            public TransformResult rewrite(ClassInput input) throws TransformException {
                return loading.transform(input);
            }

            @Override
            public String socketUserWithoutPicoNet(ClassInput input) {
                return loading.socketUserWithoutPicoNet(input);
            }
        };
    }
}
