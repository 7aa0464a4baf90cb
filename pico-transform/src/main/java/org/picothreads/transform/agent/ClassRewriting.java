package org.picothreads.transform.agent;

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
