import CLibCrypto

/// The cryptographic primitives the standard security handler needs.
///
/// **Why the system's libcrypto (through the `CLibCrypto` system-library target):** decryption
/// needs MD5 (algorithms 1–5), SHA-256/384/512 (revisions 5 and 6, algorithm 2.B), AES-128 and
/// AES-256 in CBC mode *without* padding handling (we strip PDF's PKCS#7 padding ourselves and
/// tolerate bad padding, and algorithm 2.B needs raw AES-128-CBC encryption), and RC4.
/// libcrypto has all of them, is already on every machine we build on (Debian's `libssl-dev`),
/// and is among the best-reviewed code there is. swift-crypto has no RC4 and no raw AES-CBC
/// outside its underscored `_CryptoExtras` module, and costs a long build of BoringSSL.
///
/// **Why RC4 is written here:** in OpenSSL 3, `EVP_rc4()` lives in the *legacy* provider, which
/// is not loaded by default (loading it changes process-wide state for every other user of
/// libcrypto), and the low-level `RC4()` is deprecated. RC4 is ten lines, so we keep it here.
package enum Crypto {
    // Algorithms fetched once: with OpenSSL 3, `EVP_md5()` and friends are legacy handles that make
    // every `EVP_DigestInit_ex` / `EVP_CipherInit_ex` fetch the implementation again (a lock and a
    // provider lookup each time), which dominated key derivation and per-object decryption.
    // Fetched algorithms are immutable and thread-safe; the legacy handle is the fallback.
    nonisolated(unsafe) static let md5MD: OpaquePointer? = EVP_MD_fetch(nil, "MD5", nil) ?? EVP_md5()
    nonisolated(unsafe) static let sha256MD: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil) ?? EVP_sha256()
    nonisolated(unsafe) static let sha384MD: OpaquePointer? = EVP_MD_fetch(nil, "SHA384", nil) ?? EVP_sha384()
    nonisolated(unsafe) static let sha512MD: OpaquePointer? = EVP_MD_fetch(nil, "SHA512", nil) ?? EVP_sha512()
    nonisolated(unsafe) static let aes128CBC: OpaquePointer? = EVP_CIPHER_fetch(nil, "AES-128-CBC", nil) ?? EVP_aes_128_cbc()
    nonisolated(unsafe) static let aes256CBC: OpaquePointer? = EVP_CIPHER_fetch(nil, "AES-256-CBC", nil) ?? EVP_aes_256_cbc()

    package static func digest(_ md: OpaquePointer?, _ parts: [[UInt8]]) -> [UInt8] {
        guard let ctx = EVP_MD_CTX_new() else { return [] }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestInit_ex(ctx, md, nil) == 1 else { return [] }
        for p in parts where !p.isEmpty {
            _ = p.withUnsafeBytes { EVP_DigestUpdate(ctx, $0.baseAddress, $0.count) }
        }
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var len: UInt32 = 0
        _ = out.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(ctx, $0.baseAddress, &len) }
        out.removeLast(out.count - min(out.count, Int(len)))
        return out
    }

    package static func md5(_ parts: [UInt8]...) -> [UInt8] { digest(md5MD, parts) }
    package static func sha256(_ parts: [UInt8]...) -> [UInt8] { digest(sha256MD, parts) }
    package static func sha384(_ parts: [UInt8]...) -> [UInt8] { digest(sha384MD, parts) }
    package static func sha512(_ parts: [UInt8]...) -> [UInt8] { digest(sha512MD, parts) }

    /// MD5 applied `rounds` times to the first `n` bytes of the previous hash (the 50-round loop of
    /// algorithms 2 and 7 for revisions 3 and 4), with one context and no per-round allocation.
    /// `h` must hold at least 16 bytes and `n` be at most 16.
    package static func md5Rounds(_ h: [UInt8], n: Int, rounds: Int) -> [UInt8] {
        guard h.count >= 16, n >= 0, n <= 16, let ctx = EVP_MD_CTX_new() else {
            var x = h
            for _ in 0 ..< rounds { x = md5(Array(x[0 ..< min(n, x.count)])) }
            return x
        }
        defer { EVP_MD_CTX_free(ctx) }
        var buf = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        for i in 0 ..< 16 { buf[i] = h[i] }
        var ok = true
        buf.withUnsafeMutableBufferPointer { b in
            guard let base = b.baseAddress else { ok = false; return }
            var len: UInt32 = 0
            for _ in 0 ..< rounds {
                guard EVP_DigestInit_ex(ctx, md5MD, nil) == 1, EVP_DigestUpdate(ctx, base, n) == 1,
                      EVP_DigestFinal_ex(ctx, base, &len) == 1, len == 16 else { ok = false; return }
            }
        }
        guard ok else { return h }
        return Array(buf[0 ..< 16])
    }
    /// RC4 (ARCFOUR), encryption and decryption alike.
    package static func rc4(key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        guard !key.isEmpty else { return data }
        var out = data
        // The state lives in a stack buffer and the key index wraps by comparison, not division:
        // the revision 3 and 4 password check runs 20 key schedules per file.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { sb in
            let s = sb.baseAddress!
            for i in 0 ..< 256 { s[i] = UInt8(truncatingIfNeeded: i) }
            key.withUnsafeBufferPointer { kb in
                let k = kb.baseAddress!, kn = kb.count
                var j = 0, ki = 0
                for i in 0 ..< 256 {
                    let si = s[i]
                    j = (j + Int(si) + Int(k[ki])) & 0xFF
                    s[i] = s[j]
                    s[j] = si
                    ki += 1
                    if ki == kn { ki = 0 }
                }
            }
            out.withUnsafeMutableBufferPointer { ob in
                var i = 0, j = 0
                for n in 0 ..< ob.count {
                    i = (i + 1) & 0xFF
                    let si = s[i]
                    j = (j + Int(si)) & 0xFF
                    let sj = s[j]
                    s[i] = sj
                    s[j] = si
                    ob[n] ^= s[(Int(si) + Int(sj)) & 0xFF]
                }
            }
        }
        return out
    }

    /// AES-CBC over whole blocks, no padding. `key` is 16 or 32 bytes; `data.count` must be a
    /// multiple of 16 (a ragged tail is dropped). Returns nil if libcrypto refuses.
    package static func aesCBC(encrypt: Bool, key: [UInt8], iv: [UInt8], _ data: [UInt8]) -> [UInt8]? {
        let cipher: OpaquePointer?
        switch key.count {
        case 16: cipher = aes128CBC
        case 32: cipher = aes256CBC
        default: return nil
        }
        guard iv.count == 16, let ctx = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(ctx) }
        let n = data.count - data.count % 16
        if n == 0 { return [] }
        let ok = key.withUnsafeBufferPointer { k in
            iv.withUnsafeBufferPointer { v in
                EVP_CipherInit_ex(ctx, cipher, nil, k.baseAddress, v.baseAddress, encrypt ? 1 : 0)
            }
        }
        guard ok == 1 else { return nil }
        EVP_CIPHER_CTX_set_padding(ctx, 0)
        var out = [UInt8](repeating: 0, count: n + 16)
        var outLen: Int32 = 0
        var finLen: Int32 = 0
        let r1 = out.withUnsafeMutableBufferPointer { o in
            data.withUnsafeBufferPointer { d in
                EVP_CipherUpdate(ctx, o.baseAddress, &outLen, d.baseAddress, Int32(n))
            }
        }
        guard r1 == 1 else { return nil }
        let r2 = out.withUnsafeMutableBufferPointer { o -> Int32 in
            guard let base = o.baseAddress else { return 0 }
            return EVP_CipherFinal_ex(ctx, base + Int(outLen), &finLen)
        }
        guard r2 == 1 else { return nil }
        return Array(out[0 ..< Int(outLen + finLen)])
    }
}
