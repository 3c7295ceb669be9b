package io.fiberjvm.codec;

import java.io.IOException;
import java.lang.reflect.Type;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import com.fasterxml.jackson.dataformat.smile.SmileGenerator;
import org.jspecify.annotations.Nullable;

/** Jackson Smile: records, POJOs, collections, arrays and primitives, without Java serialization. */
final class SmileCodec implements Codec {

	static final SmileCodec INSTANCE = new SmileCodec();

	private final ObjectMapper mapper;

	private SmileCodec() {
		// Frames are binary already: raw bytes, not Smile's 7-bit-safe form, which is slower and 14% larger.
		this.mapper = new ObjectMapper(SmileFactory.builder().disable(SmileGenerator.Feature.ENCODE_BINARY_AS_7BIT).build())
				.findAndRegisterModules()
				.disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
				.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
	}

	@Override
	public byte[] encode(Object value) {
		try {
			return mapper.writeValueAsBytes(value);
		}
		catch (IOException e) {
			throw new CodecException("cannot encode a value of " + (value == null ? "null" : value.getClass().getName())
					+ ": " + e.getMessage(), e);
		}
	}

	@Override
	public <T> T decode(byte[] bytes, Class<T> type) {
		return decode(bytes, mapper.constructType(type));
	}

	@Override
	public <T> T decode(byte[] bytes, Type type) {
		return decode(bytes, mapper.constructType(type));
	}

	private <T> T decode(byte[] bytes, JavaType type) {
		if (bytes == null) {
			throw new CodecException("no bytes to decode as " + type.toCanonical());
		}
		try {
			return mapper.readValue(bytes, type);
		}
		catch (IOException | RuntimeException e) {
			throw new CodecException("cannot decode " + bytes.length + " bytes as " + type.toCanonical() + ": "
					+ firstLine(e.getMessage()), e);
		}
	}

	private static String firstLine(@Nullable String message) {
		if (message == null) {
			return "no detail";
		}
		int nl = message.indexOf('\n');
		return nl < 0 ? message : message.substring(0, nl);
	}
}
