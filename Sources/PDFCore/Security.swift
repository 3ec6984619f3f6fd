import CLibCrypto

/// The standard security handler (ISO 32000-2, 7.6.4): revisions 2, 3, 4 (RC4 40–128 bits,
/// AES-128) and 5, 6 (AES-256), opened with a user password (normally the empty one).
///
/// Not done: SASLprep of non-empty passwords for revisions 5 and 6 (the UTF-8 bytes are used as
/// given), and rejecting a file whose `/Perms` does not check out (it guards permissions, not
/// readability). `/Perms` is used only as a shortcut: for revision 6, a key that decrypts it to the
/// expected bytes is accepted without the (costly) user validation hash.
package struct SecurityHandler {
    package enum Method { case identity, rc4, aes128, aes256 }

    package let version: Int
    package let revision: Int
    package let fileKey: [UInt8]
    package let stringMethod: Method
    package let streamMethod: Method
    package let encryptMetadata: Bool
    /// True when the password did not open the file but its strings are not encrypted
    /// (`/StrF /Identity`): objects outside object streams read as they are, and any stream that
    /// needs decrypting fails with ``PDFError/Kind/passwordRequired``.
    package let locked: Bool

    package static let pad: [UInt8] = [
        0x28, 0xBF, 0x4E, 0x5E, 0x4E, 0x75, 0x8A, 0x41, 0x64, 0x00, 0x4E, 0x56, 0xFF, 0xFA, 0x01, 0x08,
        0x2E, 0x2E, 0x00, 0xB6, 0xD0, 0x68, 0x3E, 0x80, 0x2F, 0x0C, 0xA9, 0xFE, 0x64, 0x53, 0x69, 0x7A,
    ]

    /// A key length in bits from a `/Length` value: a multiple of 8 from 40 to 128 (a crypt
    /// filter's `/Length` of 5 to 16 is taken as bytes, as writers use both), else nil.
    package static func keyBits(_ o: PDFObject?) -> Int? {
        guard var n = o?.intValue else { return nil }
        if n >= 5 && n <= 16 { n *= 8 }
        return n >= 40 && n <= 128 && n % 8 == 0 ? n : nil
    }

    /// Sets up decryption from the `/Encrypt` dictionary `d` (its values, and the crypt filter
    /// dictionaries under `/CF`, already resolved).
    ///
    /// Readers differ on files the specification leaves open; this one reads them as the most
    /// lenient peer does:
    /// - strings and streams both under the Identity crypt filter (only embedded files are
    ///   encrypted, `/EFF`): nothing to decrypt, no password asked (poppler, Acrobat);
    /// - a password that does not open a file whose strings are not encrypted (`/StrF /Identity`):
    ///   a `locked` handler (see ``locked``);
    /// - revision 3 or 4 without a usable `/Length`: 128-bit and 40-bit keys are both tried
    ///   against `/U` (qpdf tries 128 bits);
    /// - a key shorter than 16 bytes under `/V 4` is padded with zeros to 16 bytes before object
    ///   keys are made from it, as Acrobat does (pdf.js does the same since 2025).
    package init(dict d: PDFDict, fileID: [UInt8], password: String, offset: Int?) throws {
        func fail(_ kind: PDFError.Kind, _ m: String) -> PDFError { PDFError(kind, m, offset: offset) }
        let filter = d["Filter"]?.nameValue ?? ""
        guard filter == "Standard" else {
            throw fail(.unsupportedEncryption, "security handler /\(filter.isEmpty ? "?" : filter) is not supported (only /Standard)")
        }
        let v = d["V"]?.intValue ?? 0
        let r = d["R"]?.intValue ?? 0
        version = v
        revision = r
        let encMeta: Bool = { if case .bool(let b)? = d["EncryptMetadata"] { return b }; return true }()
        encryptMetadata = encMeta
        let p = UInt32(truncatingIfNeeded: d["P"]?.intValue ?? 0)
        let methods = try Self.cryptMethods(d, version: v, offset: offset)
        stringMethod = methods.strings
        streamMethod = methods.streams
        let passwordError = fail(.passwordRequired, password.isEmpty
            ? "the file is encrypted and needs a password (the empty user password does not open it)"
            : "the password does not open the file")
        if stringMethod == .identity && streamMethod == .identity {
            // Only embedded files (/EFF) are encrypted, or nothing is: no key is needed to read
            // strings and streams, and no password is asked for.
            self.fileKey = []
            self.locked = false
            return
        }
        guard let o = d["O"]?.stringBytes, let u = d["U"]?.stringBytes else {
            throw fail(.unsupportedEncryption, "/Encrypt lacks /O or /U")
        }
        let pw = Array(password.utf8)
        let key: [UInt8]?
        switch r {
        case 2, 3, 4:
            guard o.count >= 32, u.count >= 32 else {
                throw fail(.unsupportedEncryption, "/O or /U is shorter than 32 bytes")
            }
            // Key lengths to try, in bits: the declared one first.
            var lengths: [Int]
            if r == 2 {
                lengths = [40]
            } else if v >= 4, [stringMethod, streamMethod].contains(.aes128) {
                lengths = [128]
            } else if let declared = SecurityHandler.keyBits(d["Length"]) ?? (v >= 4 ? methods.filterBits : nil) {
                lengths = declared == 128 ? [128, 40] : [declared, 128, 40]
            } else {
                lengths = [128, 40] // no usable /Length (missing or misspelt): qpdf's 128 bits first
            }
            key = Self.rc4FileKey(revision: r, o: o, u: u, password: pw, permissions: p, fileID: fileID,
                                  encryptMetadata: encMeta, lengths: lengths)
                // Acrobat pads a short key to 16 bytes under /V 4 before making object keys.
                .map { v >= 4 && $0.count < 16 ? $0 + [UInt8](repeating: 0, count: 16 - $0.count) : $0 }
        case 5, 6:
            guard o.count >= 48, u.count >= 48, let oe = d["OE"]?.stringBytes, let ue = d["UE"]?.stringBytes,
                  oe.count >= 32, ue.count >= 32 else {
                throw fail(.unsupportedEncryption, "revision \(r) /O, /U, /OE or /UE has the wrong length")
            }
            key = try Self.aes256FileKey(revision: r, o: o, u: u, oe: oe, ue: ue, perms: d["Perms"]?.stringBytes,
                                         password: pw, permissions: p, offset: offset)
        default:
            throw fail(.unsupportedEncryption, "standard security handler revision \(r) is not supported")
        }
        if let key {
            self.fileKey = key
            self.locked = false
        } else if stringMethod == .identity {
            self.fileKey = []
            self.locked = true
        } else {
            throw passwordError
        }
    }

    /// The methods of strings and streams (`/StrF`, `/StmF` through the crypt filters of `/CF`
    /// under `/V 4` and 5; RC4 under `/V 1` and 2), and the first crypt filter's key length.
    static func cryptMethods(_ d: PDFDict, version v: Int, offset: Int?) throws
        -> (strings: Method, streams: Method, filterBits: Int?) {
        var filterBits: Int? = nil
        func method(_ name: String?) throws -> Method {
            guard let name, name != "Identity" else { return .identity }
            guard case .dict(let cfs)? = d["CF"], case .dict(let cf)? = cfs[name] else {
                throw PDFError(.unsupportedEncryption, "crypt filter /\(name) is not defined", offset: offset)
            }
            if filterBits == nil { filterBits = SecurityHandler.keyBits(cf["Length"]) }
            switch cf["CFM"]?.nameValue ?? "None" {
            case "None": return .identity
            case "V2": return .rc4
            case "AESV2": return .aes128
            case "AESV3": return .aes256
            case let other: throw PDFError(.unsupportedEncryption, "crypt filter method /\(other) is not supported", offset: offset)
            }
        }
        switch v {
        case 1, 2:
            return (.rc4, .rc4, nil)
        case 4, 5:
            let strings = try method(d["StrF"]?.nameValue)
            let streams = try method(d["StmF"]?.nameValue)
            return (strings, streams, filterBits)
        default:
            throw PDFError(.unsupportedEncryption, "encryption algorithm /V \(v) is not supported", offset: offset)
        }
    }

    /// The file key of revisions 2 to 4 (algorithms 2, 6 and 7): for each key length in
    /// `lengths`, the password taken as the user password, then as the owner password; nil when
    /// neither opens the file.
    static func rc4FileKey(revision r: Int, o: [UInt8], u: [UInt8], password pw: [UInt8], permissions p: UInt32,
                           fileID id: [UInt8], encryptMetadata: Bool, lengths: [Int]) -> [UInt8]? {
        let pBytes: [UInt8] = [UInt8(p & 0xFF), UInt8((p >> 8) & 0xFF), UInt8((p >> 16) & 0xFF), UInt8(p >> 24)]
        let extra: [UInt8] = r >= 4 && !encryptMetadata ? [0xFF, 0xFF, 0xFF, 0xFF] : []
        let o32 = Array(o[0 ..< 32])
        func key(for padded: [UInt8], n: Int) -> [UInt8] {
            var h = Crypto.md5(padded, o32, pBytes, id, extra)
            if r >= 3 { h = Crypto.md5Rounds(h, n: n, rounds: 50) }
            return Array(h[0 ..< n])
        }
        func userCheck(_ k: [UInt8]) -> Bool {
            if r == 2 { return Crypto.rc4(key: k, SecurityHandler.pad) == Array(u[0 ..< 32]) }
            var x = Crypto.rc4(key: k, Crypto.md5(SecurityHandler.pad, id))
            for i in 1 ... 19 { x = Crypto.rc4(key: k.map { $0 ^ UInt8(i) }, x) }
            return x == Array(u[0 ..< 16])
        }
        let padded = Array((pw + SecurityHandler.pad).prefix(32))
        for bits in lengths {
            let n = bits / 8
            let k = key(for: padded, n: n)
            if userCheck(k) { return k }
            // Perhaps the password given is the owner password: recover the user password.
            var ok: [UInt8] = Crypto.md5(padded)
            if r >= 3 { ok = Crypto.md5Rounds(ok, n: n, rounds: 50) }
            let ownerKey = Array(ok[0 ..< n])
            var x = o32
            if r == 2 {
                x = Crypto.rc4(key: ownerKey, x)
            } else {
                for i in stride(from: 19, through: 0, by: -1) { x = Crypto.rc4(key: ownerKey.map { $0 ^ UInt8(i) }, x) }
            }
            let k2 = key(for: x, n: n)
            if userCheck(k2) { return k2 }
        }
        return nil
    }

    /// The file key of revisions 5 and 6 (algorithm 2.A): from `/UE` when the password is the
    /// user password, from `/OE` when it is the owner password; nil when it is neither.
    static func aes256FileKey(revision r: Int, o: [UInt8], u: [UInt8], oe: [UInt8], ue: [UInt8], perms: [UInt8]?,
                              password pw: [UInt8], permissions p: UInt32, offset: Int?) throws -> [UInt8]? {
        let pw127 = Array(pw.prefix(127))
        let u48 = Array(u[0 ..< 48])
        func hash(_ salt: ArraySlice<UInt8>, _ udata: [UInt8]) -> [UInt8] {
            r == 5 ? Crypto.sha256(pw127, Array(salt), udata)
                   : SecurityHandler.hash2B(password: pw127, salt: Array(salt), udata: udata)
        }
        let zeroIV = [UInt8](repeating: 0, count: 16)
        // Fast path for revision 6, where each hash is 64+ rounds of AES and SHA-2: derive the
        // key from the user key salt first and check it against /Perms (AES-256-ECB of P, then
        // "T"/"F", then "adb"; ISO 32000-2 algorithm 2.A step f). When P and "adb" match, the
        // key is right and the user validation hash is skipped; otherwise (no /Perms, a writer
        // that got it wrong, or not the user password) the full check below decides, as before.
        // A wrong key matches 7 known bytes with probability 2^-56.
        var userKeyHash: [UInt8]? = nil
        if r == 6, let perms, perms.count >= 16 {
            let ik = hash(u[40 ..< 48], [])
            userKeyHash = ik
            if let k = Crypto.aesCBC(encrypt: false, key: ik, iv: zeroIV, Array(ue[0 ..< 32])), k.count == 32,
               let pd = Crypto.aesCBC(encrypt: false, key: k, iv: zeroIV, Array(perms[0 ..< 16])), pd.count == 16,
               pd[9] == UInt8(ascii: "a"), pd[10] == UInt8(ascii: "d"), pd[11] == UInt8(ascii: "b"),
               pd[0] == UInt8(p & 0xFF), pd[1] == UInt8((p >> 8) & 0xFF),
               pd[2] == UInt8((p >> 16) & 0xFF), pd[3] == UInt8(p >> 24) {
                return k
            }
        }
        if hash(u[32 ..< 40], []) == Array(u[0 ..< 32]) {
            let ik = userKeyHash ?? hash(u[40 ..< 48], [])
            guard let k = Crypto.aesCBC(encrypt: false, key: ik, iv: zeroIV, Array(ue[0 ..< 32])), k.count == 32 else {
                throw PDFError(.unsupportedEncryption, "could not decrypt /UE", offset: offset)
            }
            return k
        } else if hash(o[32 ..< 40], u48) == Array(o[0 ..< 32]) {
            let ik = hash(o[40 ..< 48], u48)
            guard let k = Crypto.aesCBC(encrypt: false, key: ik, iv: zeroIV, Array(oe[0 ..< 32])), k.count == 32 else {
                throw PDFError(.unsupportedEncryption, "could not decrypt /OE", offset: offset)
            }
            return k
        }
        return nil
    }

    /// ISO 32000-2 algorithm 2.B: the iterated SHA-256/384/512 hash of revision 6.
    ///
    /// One cipher context, one digest context per hash and two buffers serve every round: the
    /// 64-fold repetition of `password ‖ K ‖ udata` is built in place and encrypted in one call.
    package static func hash2B(password: [UInt8], salt: [UInt8], udata: [UInt8]) -> [UInt8] {
        let k0 = Crypto.sha256(password, salt, udata)
        guard k0.count == 32, let cctx = EVP_CIPHER_CTX_new() else { return k0 }
        defer { EVP_CIPHER_CTX_free(cctx) }
        let mds = [Crypto.sha256MD, Crypto.sha384MD, Crypto.sha512MD]
        var mctxs: [OpaquePointer] = []
        defer { for c in mctxs { EVP_MD_CTX_free(c) } }
        for _ in 0 ..< 3 {
            guard let c = EVP_MD_CTX_new() else { return k0 }
            mctxs.append(c)
        }
        let pwCount = password.count, udCount = udata.count
        let maxUnit = pwCount + 64 + udCount
        var k = [UInt8](repeating: 0, count: 64)  // K: 32, 48 or 64 bytes
        for i in 0 ..< 32 { k[i] = k0[i] }
        var kLen = 32
        var k1 = [UInt8](repeating: 0, count: 64 * maxUnit)
        var e = [UInt8](repeating: 0, count: 64 * maxUnit + 32)
        var round = 0
        var failed = false
        k1.withUnsafeMutableBufferPointer { k1b in
            e.withUnsafeMutableBufferPointer { eb in
                k.withUnsafeMutableBufferPointer { kb in
                    guard let k1p = k1b.baseAddress, let ep = eb.baseAddress, let kp = kb.baseAddress else {
                        failed = true
                        return
                    }
                    var cipherSet = false
                    while true {
                        // K1 = 64 × (password ‖ K ‖ udata).
                        let unit = pwCount + kLen + udCount
                        var o = 0
                        for b in password { k1p[o] = b; o += 1 }
                        for i in 0 ..< kLen { k1p[o] = kp[i]; o += 1 }
                        for b in udata { k1p[o] = b; o += 1 }
                        var filled = unit
                        let total = unit * 64
                        while filled < total {
                            let n = min(filled, total - filled)
                            (k1p + filled).update(from: k1p, count: n)
                            filled += n
                        }
                        // E = AES-128-CBC(key: K[0..<16], iv: K[16..<32]), no padding.
                        guard EVP_EncryptInit_ex(cctx, cipherSet ? nil : Crypto.aes128CBC, nil, kp, kp + 16) == 1 else {
                            failed = true
                            return
                        }
                        if !cipherSet { EVP_CIPHER_CTX_set_padding(cctx, 0); cipherSet = true }
                        var outLen: Int32 = 0
                        guard total <= Int(Int32.max), EVP_EncryptUpdate(cctx, ep, &outLen, k1p, Int32(total)) == 1,
                              Int(outLen) == total else {
                            failed = true
                            return
                        }
                        var sum = 0
                        for i in 0 ..< 16 { sum += Int(ep[i]) }
                        let which = sum % 3
                        let ctx = mctxs[which]
                        var len: UInt32 = 0
                        guard EVP_DigestInit_ex(ctx, mds[which], nil) == 1, EVP_DigestUpdate(ctx, ep, total) == 1,
                              EVP_DigestFinal_ex(ctx, kp, &len) == 1, len >= 32, len <= 64 else {
                            failed = true
                            return
                        }
                        kLen = Int(len)
                        round += 1
                        if round >= 64, Int(ep[total - 1]) <= round - 32 { break }
                        if round > 10_000 { break } // cannot happen (the byte test ends it by round 288)
                    }
                }
            }
        }
        if failed { return hash2BReference(password: password, salt: salt, udata: udata) }
        return Array(k[0 ..< 32])
    }

    /// The straightforward algorithm 2.B (a fallback when a context cannot be set up, and the
    /// reference the fast version is tested against).
    package static func hash2BReference(password: [UInt8], salt: [UInt8], udata: [UInt8]) -> [UInt8] {
        var k = Crypto.sha256(password, salt, udata)
        var round = 0
        while true {
            let unit = password + k + udata
            var k1: [UInt8] = []
            k1.reserveCapacity(unit.count * 64)
            for _ in 0 ..< 64 { k1.append(contentsOf: unit) }
            guard k.count >= 32, let e = Crypto.aesCBC(encrypt: true, key: Array(k[0 ..< 16]), iv: Array(k[16 ..< 32]), k1),
                  e.count >= 16 else { return k }
            var sum = 0
            for b in e[0 ..< 16] { sum += Int(b) }
            switch sum % 3 {
            case 0: k = Crypto.sha256(e)
            case 1: k = Crypto.sha384(e)
            default: k = Crypto.sha512(e)
            }
            round += 1
            if round >= 64, let last = e.last, Int(last) <= round - 32 { break }
            if round > 10_000 { break } // cannot happen (the byte test ends it by round 288)
        }
        return Array(k[0 ..< 32])
    }

    package func objectKey(_ id: ObjectID, aes: Bool) -> [UInt8] {
        let n = id.num, g = id.gen
        var parts = fileKey
        parts += [UInt8(n & 0xFF), UInt8((n >> 8) & 0xFF), UInt8((n >> 16) & 0xFF), UInt8(g & 0xFF), UInt8((g >> 8) & 0xFF)]
        if aes { parts += [0x73, 0x41, 0x6C, 0x54] } // "sAlT"
        let h = Crypto.md5(parts)
        return Array(h[0 ..< min(fileKey.count + 5, 16)])
    }

    package func decrypt(_ data: [UInt8], id: ObjectID, method: Method) -> [UInt8] {
        switch method {
        case .identity:
            return data
        case .rc4:
            return Crypto.rc4(key: objectKey(id, aes: false), data)
        case .aes128, .aes256:
            guard data.count >= 16 else { return [] }
            let key = method == .aes256 ? fileKey : objectKey(id, aes: true)
            let iv = Array(data[0 ..< 16])
            guard var out = Crypto.aesCBC(encrypt: false, key: key, iv: iv, Array(data[16...])) else { return [] }
            // Strip PKCS#7 padding when it is well formed.
            if let last = out.last, last >= 1, last <= 16, Int(last) <= out.count,
               out[(out.count - Int(last))...].allSatisfy({ $0 == last }) {
                out.removeLast(Int(last))
            }
            return out
        }
    }

    package func decryptStrings(_ obj: PDFObject, id: ObjectID) -> PDFObject {
        if stringMethod == .identity { return obj }
        switch obj {
        case .string(let b): return .string(decrypt(b, id: id, method: stringMethod))
        case .array(let a): return .array(a.map { decryptStrings($0, id: id) })
        case .dict(let d): return .dict(d.mapValues { decryptStrings($0, id: id) })
        case .stream(var s):
            s.dict = s.dict.mapValues { decryptStrings($0, id: id) }
            return .stream(s)
        default: return obj
        }
    }

    /// Whether a stream is encrypted: not xref streams, not metadata when /EncryptMetadata is
    /// false, not streams with an Identity crypt filter.
    package func shouldDecrypt(stream d: PDFDict) -> Bool {
        let type = d["Type"]?.nameValue
        if type == "XRef" { return false }
        if type == "Metadata" && !encryptMetadata { return false }
        var firstFilter: String? = d["Filter"]?.nameValue
        if case .array(let a)? = d["Filter"] { firstFilter = a.first?.nameValue }
        if firstFilter == "Crypt" {
            var parm = d["DecodeParms"]?.dict
            if case .array(let a)? = d["DecodeParms"] { parm = a.first?.dict }
            let name = parm?["Name"]?.nameValue ?? "Identity"
            if name == "Identity" { return false }
        }
        return streamMethod != .identity
    }

    package func decryptStream(_ data: [UInt8], id: ObjectID) throws -> [UInt8] {
        if locked && streamMethod != .identity {
            throw PDFError(.passwordRequired, "stream of object \(id.num) is encrypted and the password does not open the file")
        }
        return decrypt(data, id: id, method: streamMethod)
    }
}
