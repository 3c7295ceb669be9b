package io.fiberjvm.transport;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Objects;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The run's TLS identity: an Ed25519 key and a self-signed certificate that every process of the run derives from the
 * run's secret, serves with, and trusts alone.
 *
 * <p>Whoever holds the secret can derive the key, as whoever holds it may join the run: the secret reaches a process
 * the way it always does (a Kubernetes Secret, an environment variable), and no certificate travels. Ed25519 makes the
 * key from 32 bytes and signs deterministically, so every process, on any JVM, makes the same certificate.
 */
public final class RunTls {

	/** Ed25519's object identifier, 1.3.101.112. */
	private static final byte[] ED25519 = {0x06, 0x03, 0x2b, 0x65, 0x70};
	/** The common name's object identifier, 2.5.4.3. */
	private static final byte[] COMMON_NAME = {0x06, 0x03, 0x55, 0x04, 0x03};

	private final PrivateKey privateKey;
	private final X509Certificate certificate;

	private RunTls(PrivateKey privateKey, X509Certificate certificate) {
		this.privateKey = privateKey;
		this.certificate = certificate;
	}

	/** The identity of the run whose secret is {@code secret}. */
	public static RunTls derive(String secret) {
		Objects.requireNonNull(secret, "secret");
		try {
			byte[] seed = hmac(secret, "fiber run tls key");
			// The JDK's own provider: another (FIPS, PKCS#11) may ignore the bytes given and draw its own.
			KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519", "SunEC");
			generator.initialize(255, new FixedBytes(seed));
			KeyPair pair = generator.generateKeyPair();
			byte[] made = ((java.security.interfaces.EdECPrivateKey) pair.getPrivate()).getBytes().orElse(new byte[0]);
			if (!java.util.Arrays.equals(made, seed)) {
				throw new GeneralSecurityException("the Ed25519 key was not made from the bytes derived from the secret");
			}
			// One name for every run: the certificate tells a stranger nothing of the secret but its key.
			String name = "fiber-run";
			byte[] tbs = sequence(
					// Version 3, a serial number, the signature's algorithm, the issuer, a validity, the subject, the key.
					tagged(0xa0, integer(new byte[] {2})),
					integer(new byte[] {1}),
					sequence(ED25519),
					name(name),
					sequence(time("200101000000Z"), time("491231235959Z")),
					name(name),
					pair.getPublic().getEncoded());
			Signature signer = Signature.getInstance("Ed25519");
			signer.initSign(pair.getPrivate());
			signer.update(tbs);
			byte[] der = sequence(tbs, sequence(ED25519), bitString(signer.sign()));
			X509Certificate certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
					.generateCertificate(new ByteArrayInputStream(der));
			return new RunTls(pair.getPrivate(), certificate);
		}
		catch (GeneralSecurityException e) {
			throw new IllegalStateException("this JVM cannot make the run's TLS identity (Ed25519, Java 15 or later): " + e, e);
		}
	}

	/** The key this process serves with. */
	public PrivateKey privateKey() {
		return privateKey;
	}

	/** The certificate this process serves with, and the only one it trusts. */
	public X509Certificate certificate() {
		return certificate;
	}

	@Override
	public String toString() {
		// Never the key.
		return "RunTls[" + certificate.getSubjectX500Principal().getName() + "]";
	}

	private static byte[] hmac(String secret, String purpose) throws GeneralSecurityException {
		Mac mac = Mac.getInstance("HmacSHA256");
		mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
		return mac.doFinal(purpose.getBytes(StandardCharsets.UTF_8));
	}

	private static byte[] name(String commonName) {
		byte[] value = encode(0x0c, commonName.getBytes(StandardCharsets.UTF_8));
		return sequence(encode(0x31, sequence(COMMON_NAME, value)));
	}

	private static byte[] time(String utc) {
		return encode(0x17, utc.getBytes(StandardCharsets.US_ASCII));
	}

	private static byte[] integer(byte[] value) {
		return encode(0x02, value);
	}

	private static byte[] bitString(byte[] bits) {
		byte[] withUnused = new byte[bits.length + 1];
		System.arraycopy(bits, 0, withUnused, 1, bits.length);
		return encode(0x03, withUnused);
	}

	private static byte[] tagged(int tag, byte[] content) {
		return encode(tag, content);
	}

	private static byte[] sequence(byte[]... parts) {
		ByteArrayOutputStream all = new ByteArrayOutputStream();
		for (byte[] part : parts) {
			all.writeBytes(part);
		}
		return encode(0x30, all.toByteArray());
	}

	/** One DER element: tag, length, content. */
	private static byte[] encode(int tag, byte[] content) {
		ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 4);
		out.write(tag);
		int length = content.length;
		if (length < 0x80) {
			out.write(length);
		}
		else if (length < 0x100) {
			out.write(0x81);
			out.write(length);
		}
		else if (length < 0x10000) {
			out.write(0x82);
			out.write(length >> 8);
			out.write(length);
		}
		else {
			throw new IllegalArgumentException("a DER element of " + length + " bytes: the run's certificate has none so long");
		}
		out.writeBytes(content);
		return out.toByteArray();
	}

	/** The 32 bytes an Ed25519 key is made from, as the only randomness its generator draws. */
	private static final class FixedBytes extends SecureRandom {

		private static final long serialVersionUID = 1L;
		private final byte[] bytes;

		FixedBytes(byte[] bytes) {
			this.bytes = bytes.clone();
		}

		@Override
		public void nextBytes(byte[] into) {
			if (into.length != bytes.length) {
				throw new IllegalStateException("an Ed25519 key is made from " + bytes.length + " bytes, not " + into.length);
			}
			System.arraycopy(bytes, 0, into, 0, into.length);
		}

		@Override
		public byte[] generateSeed(int count) {
			throw new IllegalStateException("the run's key draws no seed");
		}

		@Override
		public int nextInt() {
			throw new IllegalStateException("the run's key draws 32 bytes and nothing else");
		}
	}
}
