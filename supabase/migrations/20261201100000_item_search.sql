-- Search (PRODUCT.md §2 `/search` and the album's search): the items a person can see, found by the beginnings of
-- the words of their name and details ([Note: Search words] in src/lib/search-words.ts), and by rating, colour
-- label, kind, dates, who added them and the caller's own hearts, newest first, paged by keyset.
--
-- [Note: Search words in SQL]
-- The database cuts words exactly as the app does, so that both backends find the same items: NFKD, combining
-- marks removed, lower case, the letters NFKD leaves whole folded (æ → ae, ß → ss, ł → l, …), then runs of letters
-- and digits. Nothing here depends on the database's locale: a cluster made with `--no-locale` (C) would lower
-- and classify ASCII only, so the marks, the letters and digits, and the upper-case letters are spelt out below,
-- as Unicode 17 has them (what Node's `\p{M}`, `\p{L}\p{N}` and `toLowerCase` answer). `unaccent` is not used:
-- it folds more than letters (© → "(C)", ½ → " 1/2") and so would find what the app does not.
-- An item's words are indexed as an expression (items_search_doc_idx) rather than kept in a column: rows keep
-- their shape wherever they are sent (lists, realtime changes, share links). A query's words become a tsquery of
-- prefixes ('word':*), each quoted, so no text typed in a search is read as tsquery syntax.
--
-- [Note: Search runs as its definer]
-- Row Level Security would keep the text condition off the index: `@@` is not leakproof, so under a policy
-- Postgres evaluates it row by row after the policy's own conditions. private.search_item_ids therefore runs as
-- its definer and applies the rules of items_select itself (the caller's albums, not deleted; ready items, not
-- in the trash); public.search_items, which runs as the caller, then reads those rows through RLS, so a row the
-- policy hides never comes out even if the two were to disagree.

-- The text with marks removed, in lower case, the letters NFKD leaves whole folded.
create function private.search_fold(p_text text) returns text
language sql immutable strict parallel safe set search_path = '' as $$
  select pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(pg_catalog.translate(
    pg_catalog.lower(case when s.t ~ ('[\u00c0-\u00d6\u00d8-\u00de\u0100\u0102\u0104\u0106\u0108\u010a\u010c\u010e\u0110\u0112\u0114\u0116\u0118'
    '\u011a\u011c\u011e\u0120\u0122\u0124\u0126\u0128\u012a\u012c\u012e\u0132\u0134\u0136\u0139\u013b\u013d\u013f'
    '\u0141\u0143\u0145\u0147\u014a\u014c\u014e\u0150\u0152\u0154\u0156\u0158\u015a\u015c\u015e\u0160\u0162\u0164'
    '\u0166\u0168\u016a\u016c\u016e\u0170\u0172\u0174\u0176\u0178\u0179\u017b\u017d\u0181\u0182\u0184\u0186\u0187'
    '\u0189-\u018b\u018e-\u0191\u0193\u0194\u0196-\u0198\u019c\u019d\u019f\u01a0\u01a2\u01a4\u01a6\u01a7\u01a9'
    '\u01ac\u01ae\u01af\u01b1-\u01b3\u01b5\u01b7\u01b8\u01bc\u01c4\u01c5\u01c7\u01c8\u01ca\u01cb\u01cd\u01cf\u01d1'
    '\u01d3\u01d5\u01d7\u01d9\u01db\u01de\u01e0\u01e2\u01e4\u01e6\u01e8\u01ea\u01ec\u01ee\u01f1\u01f2\u01f4\u01f6-'
    '\u01f8\u01fa\u01fc\u01fe\u0200\u0202\u0204\u0206\u0208\u020a\u020c\u020e\u0210\u0212\u0214\u0216\u0218\u021a'
    '\u021c\u021e\u0220\u0222\u0224\u0226\u0228\u022a\u022c\u022e\u0230\u0232\u023a\u023b\u023d\u023e\u0241\u0243-'
    '\u0246\u0248\u024a\u024c\u024e\u0370\u0372\u0376\u037f\u0386\u0388-\u038a\u038c\u038e\u038f\u0391-\u03a1\u03a3'
    '-\u03ab\u03cf\u03d8\u03da\u03dc\u03de\u03e0\u03e2\u03e4\u03e6\u03e8\u03ea\u03ec\u03ee\u03f4\u03f7\u03f9\u03fa'
    '\u03fd-\u042f\u0460\u0462\u0464\u0466\u0468\u046a\u046c\u046e\u0470\u0472\u0474\u0476\u0478\u047a\u047c\u047e'
    '\u0480\u048a\u048c\u048e\u0490\u0492\u0494\u0496\u0498\u049a\u049c\u049e\u04a0\u04a2\u04a4\u04a6\u04a8\u04aa'
    '\u04ac\u04ae\u04b0\u04b2\u04b4\u04b6\u04b8\u04ba\u04bc\u04be\u04c0\u04c1\u04c3\u04c5\u04c7\u04c9\u04cb\u04cd'
    '\u04d0\u04d2\u04d4\u04d6\u04d8\u04da\u04dc\u04de\u04e0\u04e2\u04e4\u04e6\u04e8\u04ea\u04ec\u04ee\u04f0\u04f2'
    '\u04f4\u04f6\u04f8\u04fa\u04fc\u04fe\u0500\u0502\u0504\u0506\u0508\u050a\u050c\u050e\u0510\u0512\u0514\u0516'
    '\u0518\u051a\u051c\u051e\u0520\u0522\u0524\u0526\u0528\u052a\u052c\u052e\u0531-\u0556\u10a0-\u10c5\u10c7\u10cd'
    '\u13a0-\u13f5\u1c89\u1c90-\u1cba\u1cbd-\u1cbf\u1e00\u1e02\u1e04\u1e06\u1e08\u1e0a\u1e0c\u1e0e\u1e10\u1e12'
    '\u1e14\u1e16\u1e18\u1e1a\u1e1c\u1e1e\u1e20\u1e22\u1e24\u1e26\u1e28\u1e2a\u1e2c\u1e2e\u1e30\u1e32\u1e34\u1e36'
    '\u1e38\u1e3a\u1e3c\u1e3e\u1e40\u1e42\u1e44\u1e46\u1e48\u1e4a\u1e4c\u1e4e\u1e50\u1e52\u1e54\u1e56\u1e58\u1e5a'
    '\u1e5c\u1e5e\u1e60\u1e62\u1e64\u1e66\u1e68\u1e6a\u1e6c\u1e6e\u1e70\u1e72\u1e74\u1e76\u1e78\u1e7a\u1e7c\u1e7e'
    '\u1e80\u1e82\u1e84\u1e86\u1e88\u1e8a\u1e8c\u1e8e\u1e90\u1e92\u1e94\u1e9e\u1ea0\u1ea2\u1ea4\u1ea6\u1ea8\u1eaa'
    '\u1eac\u1eae\u1eb0\u1eb2\u1eb4\u1eb6\u1eb8\u1eba\u1ebc\u1ebe\u1ec0\u1ec2\u1ec4\u1ec6\u1ec8\u1eca\u1ecc\u1ece'
    '\u1ed0\u1ed2\u1ed4\u1ed6\u1ed8\u1eda\u1edc\u1ede\u1ee0\u1ee2\u1ee4\u1ee6\u1ee8\u1eea\u1eec\u1eee\u1ef0\u1ef2'
    '\u1ef4\u1ef6\u1ef8\u1efa\u1efc\u1efe\u1f08-\u1f0f\u1f18-\u1f1d\u1f28-\u1f2f\u1f38-\u1f3f\u1f48-\u1f4d\u1f59'
    '\u1f5b\u1f5d\u1f5f\u1f68-\u1f6f\u1f88-\u1f8f\u1f98-\u1f9f\u1fa8-\u1faf\u1fb8-\u1fbc\u1fc8-\u1fcc\u1fd8-\u1fdb'
    '\u1fe8-\u1fec\u1ff8-\u1ffc\u2126\u212a\u212b\u2132\u2160-\u216f\u2183\u24b6-\u24cf\u2c00-\u2c2f\u2c60\u2c62-'
    '\u2c64\u2c67\u2c69\u2c6b\u2c6d-\u2c70\u2c72\u2c75\u2c7e-\u2c80\u2c82\u2c84\u2c86\u2c88\u2c8a\u2c8c\u2c8e\u2c90'
    '\u2c92\u2c94\u2c96\u2c98\u2c9a\u2c9c\u2c9e\u2ca0\u2ca2\u2ca4\u2ca6\u2ca8\u2caa\u2cac\u2cae\u2cb0\u2cb2\u2cb4'
    '\u2cb6\u2cb8\u2cba\u2cbc\u2cbe\u2cc0\u2cc2\u2cc4\u2cc6\u2cc8\u2cca\u2ccc\u2cce\u2cd0\u2cd2\u2cd4\u2cd6\u2cd8'
    '\u2cda\u2cdc\u2cde\u2ce0\u2ce2\u2ceb\u2ced\u2cf2\ua640\ua642\ua644\ua646\ua648\ua64a\ua64c\ua64e\ua650\ua652'
    '\ua654\ua656\ua658\ua65a\ua65c\ua65e\ua660\ua662\ua664\ua666\ua668\ua66a\ua66c\ua680\ua682\ua684\ua686\ua688'
    '\ua68a\ua68c\ua68e\ua690\ua692\ua694\ua696\ua698\ua69a\ua722\ua724\ua726\ua728\ua72a\ua72c\ua72e\ua732\ua734'
    '\ua736\ua738\ua73a\ua73c\ua73e\ua740\ua742\ua744\ua746\ua748\ua74a\ua74c\ua74e\ua750\ua752\ua754\ua756\ua758'
    '\ua75a\ua75c\ua75e\ua760\ua762\ua764\ua766\ua768\ua76a\ua76c\ua76e\ua779\ua77b\ua77d\ua77e\ua780\ua782\ua784'
    '\ua786\ua78b\ua78d\ua790\ua792\ua796\ua798\ua79a\ua79c\ua79e\ua7a0\ua7a2\ua7a4\ua7a6\ua7a8\ua7aa-\ua7ae\ua7b0-'
    '\ua7b4\ua7b6\ua7b8\ua7ba\ua7bc\ua7be\ua7c0\ua7c2\ua7c4-\ua7c7\ua7c9\ua7cb\ua7cc\ua7ce\ua7d0\ua7d2\ua7d4\ua7d6'
    '\ua7d8\ua7da\ua7dc\ua7f5\uff21-\uff3a\U00010400-\U00010427\U000104b0-\U000104d3\U00010570-\U0001057a\U0001057c'
    '-\U0001058a\U0001058c-\U00010592\U00010594\U00010595\U00010c80-\U00010cb2\U00010d50-\U00010d65\U000118a0-'
    '\U000118bf\U00016e40-\U00016e5f\U00016ea0-\U00016eb8\U0001e900-\U0001e921]') then pg_catalog.translate(s.t,
    'ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮĲĴĶĹĻĽ'
    'ĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽƁƂƄƆƇƉƊƋƎƏƐƑƓƔƖƗƘƜƝƟƠƢƤƦƧƩƬƮ'
    'ƯƱƲƳƵƷƸƼǄǅǇǈǊǋǍǏǑǓǕǗǙǛǞǠǢǤǦǨǪǬǮǱǲǴǶǷǸǺǼǾȀȂȄȆȈȊȌȎȐȒȔȖȘȚȜȞȠȢȤȦ'
    'ȨȪȬȮȰȲȺȻȽȾɁɃɄɅɆɈɊɌɎͰͲͶͿΆΈΉΊΌΎΏΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩΪΫϏϘϚϜ'
    'ϞϠϢϤϦϨϪϬϮϴϷϹϺϽϾϿЀЁЂЃЄЅІЇЈЉЊЋЌЍЎЏАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫ'
    'ЬЭЮЯѠѢѤѦѨѪѬѮѰѲѴѶѸѺѼѾҀҊҌҎҐҒҔҖҘҚҜҞҠҢҤҦҨҪҬҮҰҲҴҶҸҺҼҾӀӁӃӅӇӉӋӍӐӒӔӖ'
    'ӘӚӜӞӠӢӤӦӨӪӬӮӰӲӴӶӸӺӼӾԀԂԄԆԈԊԌԎԐԒԔԖԘԚԜԞԠԢԤԦԨԪԬԮԱԲԳԴԵԶԷԸԹԺԻԼԽԾԿՀ'
    'ՁՂՃՄՅՆՇՈՉՊՋՌՍՎՏՐՑՒՓՔՕՖႠႡႢႣႤႥႦႧႨႩႪႫႬႭႮႯႰႱႲႳႴႵႶႷႸႹႺႻႼႽႾႿჀჁჂჃჄჅ'
    'ჇჍᎠᎡᎢᎣᎤᎥᎦᎧᎨᎩᎪᎫᎬᎭᎮᎯᎰᎱᎲᎳᎴᎵᎶᎷᎸᎹᎺᎻᎼᎽᎾᎿᏀᏁᏂᏃᏄᏅᏆᏇᏈᏉᏊᏋᏌᏍᏎᏏᏐᏑᏒᏓᏔᏕᏖᏗᏘᏙ'
    'ᏚᏛᏜᏝᏞᏟᏠᏡᏢᏣᏤᏥᏦᏧᏨᏩᏪᏫᏬᏭᏮᏯᏰᏱᏲᏳᏴᏵᲉᲐᲑᲒᲓᲔᲕᲖᲗᲘᲙᲚᲛᲜᲝᲞᲟᲠᲡᲢᲣᲤᲥᲦᲧᲨᲩᲪᲫᲬᲭᲮ'
    'ᲯᲰᲱᲲᲳᲴᲵᲶᲷᲸᲹᲺᲽᲾᲿḀḂḄḆḈḊḌḎḐḒḔḖḘḚḜḞḠḢḤḦḨḪḬḮḰḲḴḶḸḺḼḾṀṂṄṆṈṊṌṎṐṒṔṖṘ'
    'ṚṜṞṠṢṤṦṨṪṬṮṰṲṴṶṸṺṼṾẀẂẄẆẈẊẌẎẐẒẔẞẠẢẤẦẨẪẬẮẰẲẴẶẸẺẼẾỀỂỄỆỈỊỌỎỐỒỔỖỘ'
    'ỚỜỞỠỢỤỦỨỪỬỮỰỲỴỶỸỺỼỾἈἉἊἋἌἍἎἏἘἙἚἛἜἝἨἩἪἫἬἭἮἯἸἹἺἻἼἽἾἿὈὉὊὋὌὍὙὛὝὟὨ'
    'ὩὪὫὬὭὮὯᾈᾉᾊᾋᾌᾍᾎᾏᾘᾙᾚᾛᾜᾝᾞᾟᾨᾩᾪᾫᾬᾭᾮᾯᾸᾹᾺΆᾼῈΈῊΉῌῘῙῚΊῨῩῪΎῬῸΌῺΏῼΩKÅℲⅠ'
    'ⅡⅢⅣⅤⅥⅦⅧⅨⅩⅪⅫⅬⅭⅮⅯↃⒶⒷⒸⒹⒺⒻⒼⒽⒾⒿⓀⓁⓂⓃⓄⓅⓆⓇⓈⓉⓊⓋⓌⓍⓎⓏⰀⰁⰂⰃⰄⰅⰆⰇⰈⰉⰊⰋⰌⰍⰎⰏⰐⰑ'
    'ⰒⰓⰔⰕⰖⰗⰘⰙⰚⰛⰜⰝⰞⰟⰠⰡⰢⰣⰤⰥⰦⰧⰨⰩⰪⰫⰬⰭⰮⰯⱠⱢⱣⱤⱧⱩⱫⱭⱮⱯⱰⱲⱵⱾⱿⲀⲂⲄⲆⲈⲊⲌⲎⲐⲒⲔⲖⲘⲚⲜ'
    'ⲞⲠⲢⲤⲦⲨⲪⲬⲮⲰⲲⲴⲶⲸⲺⲼⲾⳀⳂⳄⳆⳈⳊⳌⳎⳐⳒⳔⳖⳘⳚⳜⳞⳠⳢⳫⳭⳲꙀꙂꙄꙆꙈꙊꙌꙎꙐꙒꙔꙖꙘꙚꙜꙞꙠꙢꙤꙦꙨꙪ'
    'ꙬꚀꚂꚄꚆꚈꚊꚌꚎꚐꚒꚔꚖꚘꚚꜢꜤꜦꜨꜪꜬꜮꜲꜴꜶꜸꜺꜼꜾꝀꝂꝄꝆꝈꝊꝌꝎꝐꝒꝔꝖꝘꝚꝜꝞꝠꝢꝤꝦꝨꝪꝬꝮꝹꝻꝽꝾꞀꞂꞄ'
    'ꞆꞋꞍꞐꞒꞖꞘꞚꞜꞞꞠꞢꞤꞦꞨꞪꞫꞬꞭꞮꞰꞱꞲꞳꞴꞶꞸꞺꞼꞾꟀꟂꟄꟅꟆꟇꟉꟋꟌ꟎Ꟑ꟒꟔ꟖꟘꟚꟜꟵＡＢＣＤＥＦＧＨＩＪＫＬ'
    'ＭＮＯＰＱＲＳＴＵＶＷＸＹＺ𐐀𐐁𐐂𐐃𐐄𐐅𐐆𐐇𐐈𐐉𐐊𐐋𐐌𐐍𐐎𐐏𐐐𐐑𐐒𐐓𐐔𐐕𐐖𐐗𐐘𐐙𐐚𐐛𐐜𐐝𐐞𐐟𐐠𐐡𐐢𐐣𐐤𐐥𐐦𐐧𐒰𐒱𐒲𐒳𐒴𐒵'
    '𐒶𐒷𐒸𐒹𐒺𐒻𐒼𐒽𐒾𐒿𐓀𐓁𐓂𐓃𐓄𐓅𐓆𐓇𐓈𐓉𐓊𐓋𐓌𐓍𐓎𐓏𐓐𐓑𐓒𐓓𐕰𐕱𐕲𐕳𐕴𐕵𐕶𐕷𐕸𐕹𐕺𐕼𐕽𐕾𐕿𐖀𐖁𐖂𐖃𐖄𐖅𐖆𐖇𐖈𐖉𐖊𐖌𐖍𐖎𐖏'
    '𐖐𐖑𐖒𐖔𐖕𐲀𐲁𐲂𐲃𐲄𐲅𐲆𐲇𐲈𐲉𐲊𐲋𐲌𐲍𐲎𐲏𐲐𐲑𐲒𐲓𐲔𐲕𐲖𐲗𐲘𐲙𐲚𐲛𐲜𐲝𐲞𐲟𐲠𐲡𐲢𐲣𐲤𐲥𐲦𐲧𐲨𐲩𐲪𐲫𐲬𐲭𐲮𐲯𐲰𐲱𐲲𐵐𐵑𐵒𐵓'
    '𐵔𐵕𐵖𐵗𐵘𐵙𐵚𐵛𐵜𐵝𐵞𐵟𐵠𐵡𐵢𐵣𐵤𐵥𑢠𑢡𑢢𑢣𑢤𑢥𑢦𑢧𑢨𑢩𑢪𑢫𑢬𑢭𑢮𑢯𑢰𑢱𑢲𑢳𑢴𑢵𑢶𑢷𑢸𑢹𑢺𑢻𑢼𑢽𑢾𑢿𖹀𖹁𖹂𖹃𖹄𖹅𖹆𖹇𖹈𖹉'
    '𖹊𖹋𖹌𖹍𖹎𖹏𖹐𖹑𖹒𖹓𖹔𖹕𖹖𖹗𖹘𖹙𖹚𖹛𖹜𖹝𖹞𖹟𖺠𖺡𖺢𖺣𖺤𖺥𖺦𖺧𖺨𖺩𖺪𖺫𖺬𖺭𖺮𖺯𖺰𖺱𖺲𖺳𖺴𖺵𖺶𖺷𖺸𞤀𞤁𞤂𞤃𞤄𞤅𞤆𞤇𞤈𞤉𞤊𞤋𞤌'
    '𞤍𞤎𞤏𞤐𞤑𞤒𞤓𞤔𞤕𞤖𞤗𞤘𞤙𞤚𞤛𞤜𞤝𞤞𞤟𞤠𞤡',
    'àáâãäåæçèéêëìíîïðñòóôõöøùúûüýþāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįĳĵķĺļľ'
    'ŀłńņňŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷÿźżžɓƃƅɔƈɖɗƌǝəɛƒɠɣɩɨƙɯɲɵơƣƥʀƨʃƭʈ'
    'ưʊʋƴƶʒƹƽǆǆǉǉǌǌǎǐǒǔǖǘǚǜǟǡǣǥǧǩǫǭǯǳǳǵƕƿǹǻǽǿȁȃȅȇȉȋȍȏȑȓȕȗșțȝȟƞȣȥȧ'
    'ȩȫȭȯȱȳⱥȼƚⱦɂƀʉʌɇɉɋɍɏͱͳͷϳάέήίόύώαβγδεζηθικλμνξοπρστυφχψωϊϋϗϙϛϝ'
    'ϟϡϣϥϧϩϫϭϯθϸϲϻͻͼͽѐёђѓєѕіїјљњћќѝўџабвгдежзийклмнопрстуфхцчшщъы'
    'ьэюяѡѣѥѧѩѫѭѯѱѳѵѷѹѻѽѿҁҋҍҏґғҕҗҙқҝҟҡңҥҧҩҫҭүұҳҵҷҹһҽҿӏӂӄӆӈӊӌӎӑӓӕӗ'
    'әӛӝӟӡӣӥӧөӫӭӯӱӳӵӷӹӻӽӿԁԃԅԇԉԋԍԏԑԓԕԗԙԛԝԟԡԣԥԧԩԫԭԯաբգդեզէըթժիլխծկհ'
    'ձղճմյնշոչպջռսվտրցւփքօֆⴀⴁⴂⴃⴄⴅⴆⴇⴈⴉⴊⴋⴌⴍⴎⴏⴐⴑⴒⴓⴔⴕⴖⴗⴘⴙⴚⴛⴜⴝⴞⴟⴠⴡⴢⴣⴤⴥ'
    'ⴧⴭꭰꭱꭲꭳꭴꭵꭶꭷꭸꭹꭺꭻꭼꭽꭾꭿꮀꮁꮂꮃꮄꮅꮆꮇꮈꮉꮊꮋꮌꮍꮎꮏꮐꮑꮒꮓꮔꮕꮖꮗꮘꮙꮚꮛꮜꮝꮞꮟꮠꮡꮢꮣꮤꮥꮦꮧꮨꮩ'
    'ꮪꮫꮬꮭꮮꮯꮰꮱꮲꮳꮴꮵꮶꮷꮸꮹꮺꮻꮼꮽꮾꮿᏸᏹᏺᏻᏼᏽᲊაბგდევზთიკლმნოპჟრსტუფქღყშჩცძწჭხ'
    'ჯჰჱჲჳჴჵჶჷჸჹჺჽჾჿḁḃḅḇḉḋḍḏḑḓḕḗḙḛḝḟḡḣḥḧḩḫḭḯḱḳḵḷḹḻḽḿṁṃṅṇṉṋṍṏṑṓṕṗṙ'
    'ṛṝṟṡṣṥṧṩṫṭṯṱṳṵṷṹṻṽṿẁẃẅẇẉẋẍẏẑẓẕßạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộ'
    'ớờởỡợụủứừửữựỳỵỷỹỻỽỿἀἁἂἃἄἅἆἇἐἑἒἓἔἕἠἡἢἣἤἥἦἧἰἱἲἳἴἵἶἷὀὁὂὃὄὅὑὓὕὗὠ'
    'ὡὢὣὤὥὦὧᾀᾁᾂᾃᾄᾅᾆᾇᾐᾑᾒᾓᾔᾕᾖᾗᾠᾡᾢᾣᾤᾥᾦᾧᾰᾱὰάᾳὲέὴήῃῐῑὶίῠῡὺύῥὸόὼώῳωkåⅎⅰ'
    'ⅱⅲⅳⅴⅵⅶⅷⅸⅹⅺⅻⅼⅽⅾⅿↄⓐⓑⓒⓓⓔⓕⓖⓗⓘⓙⓚⓛⓜⓝⓞⓟⓠⓡⓢⓣⓤⓥⓦⓧⓨⓩⰰⰱⰲⰳⰴⰵⰶⰷⰸⰹⰺⰻⰼⰽⰾⰿⱀⱁ'
    'ⱂⱃⱄⱅⱆⱇⱈⱉⱊⱋⱌⱍⱎⱏⱐⱑⱒⱓⱔⱕⱖⱗⱘⱙⱚⱛⱜⱝⱞⱟⱡɫᵽɽⱨⱪⱬɑɱɐɒⱳⱶȿɀⲁⲃⲅⲇⲉⲋⲍⲏⲑⲓⲕⲗⲙⲛⲝ'
    'ⲟⲡⲣⲥⲧⲩⲫⲭⲯⲱⲳⲵⲷⲹⲻⲽⲿⳁⳃⳅⳇⳉⳋⳍⳏⳑⳓⳕⳗⳙⳛⳝⳟⳡⳣⳬⳮⳳꙁꙃꙅꙇꙉꙋꙍꙏꙑꙓꙕꙗꙙꙛꙝꙟꙡꙣꙥꙧꙩꙫ'
    'ꙭꚁꚃꚅꚇꚉꚋꚍꚏꚑꚓꚕꚗꚙꚛꜣꜥꜧꜩꜫꜭꜯꜳꜵꜷꜹꜻꜽꜿꝁꝃꝅꝇꝉꝋꝍꝏꝑꝓꝕꝗꝙꝛꝝꝟꝡꝣꝥꝧꝩꝫꝭꝯꝺꝼᵹꝿꞁꞃꞅ'
    'ꞇꞌɥꞑꞓꞗꞙꞛꞝꞟꞡꞣꞥꞧꞩɦɜɡɬɪʞʇʝꭓꞵꞷꞹꞻꞽꞿꟁꟃꞔʂᶎꟈꟊɤꟍ꟏ꟑꟓꟕꟗꟙꟛƛꟶａｂｃｄｅｆｇｈｉｊｋｌ'
    'ｍｎｏｐｑｒｓｔｕｖｗｘｙｚ𐐨𐐩𐐪𐐫𐐬𐐭𐐮𐐯𐐰𐐱𐐲𐐳𐐴𐐵𐐶𐐷𐐸𐐹𐐺𐐻𐐼𐐽𐐾𐐿𐑀𐑁𐑂𐑃𐑄𐑅𐑆𐑇𐑈𐑉𐑊𐑋𐑌𐑍𐑎𐑏𐓘𐓙𐓚𐓛𐓜𐓝'
    '𐓞𐓟𐓠𐓡𐓢𐓣𐓤𐓥𐓦𐓧𐓨𐓩𐓪𐓫𐓬𐓭𐓮𐓯𐓰𐓱𐓲𐓳𐓴𐓵𐓶𐓷𐓸𐓹𐓺𐓻𐖗𐖘𐖙𐖚𐖛𐖜𐖝𐖞𐖟𐖠𐖡𐖣𐖤𐖥𐖦𐖧𐖨𐖩𐖪𐖫𐖬𐖭𐖮𐖯𐖰𐖱𐖳𐖴𐖵𐖶'
    '𐖷𐖸𐖹𐖻𐖼𐳀𐳁𐳂𐳃𐳄𐳅𐳆𐳇𐳈𐳉𐳊𐳋𐳌𐳍𐳎𐳏𐳐𐳑𐳒𐳓𐳔𐳕𐳖𐳗𐳘𐳙𐳚𐳛𐳜𐳝𐳞𐳟𐳠𐳡𐳢𐳣𐳤𐳥𐳦𐳧𐳨𐳩𐳪𐳫𐳬𐳭𐳮𐳯𐳰𐳱𐳲𐵰𐵱𐵲𐵳'
    '𐵴𐵵𐵶𐵷𐵸𐵹𐵺𐵻𐵼𐵽𐵾𐵿𐶀𐶁𐶂𐶃𐶄𐶅𑣀𑣁𑣂𑣃𑣄𑣅𑣆𑣇𑣈𑣉𑣊𑣋𑣌𑣍𑣎𑣏𑣐𑣑𑣒𑣓𑣔𑣕𑣖𑣗𑣘𑣙𑣚𑣛𑣜𑣝𑣞𑣟𖹠𖹡𖹢𖹣𖹤𖹥𖹦𖹧𖹨𖹩'
    '𖹪𖹫𖹬𖹭𖹮𖹯𖹰𖹱𖹲𖹳𖹴𖹵𖹶𖹷𖹸𖹹𖹺𖹻𖹼𖹽𖹾𖹿𖺻𖺼𖺽𖺾𖺿𖻀𖻁𖻂𖻃𖻄𖻅𖻆𖻇𖻈𖻉𖻊𖻋𖻌𖻍𖻎𖻏𖻐𖻑𖻒𖻓𞤢𞤣𞤤𞤥𞤦𞤧𞤨𞤩𞤪𞤫𞤬𞤭𞤮'
    '𞤯𞤰𞤱𞤲𞤳𞤴𞤵𞤶𞤷𞤸𞤹𞤺𞤻𞤼𞤽𞤾𞤿𞥀𞥁𞥂𞥃') else s.t end),
    'øłđðıħŧ', 'olddiht'), 'æ', 'ae'), 'œ', 'oe'), 'ß', 'ss'), 'þ', 'th')
  from (
    -- A capital sigma ending a word is a final sigma (ς), as toLowerCase has it.
    select case when pg_catalog.strpos(m.t, 'Σ') = 0 then m.t else pg_catalog.regexp_replace(m.t, '(?<=[\u0041-\u005a\u0061-\u007a\u00aa\u00b5\u00ba\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u01ba\u01bc-\u01bf\u01c4-\u0293\u0296-\u02b8\u02c0\u02c1\u02e0-\u02e4\u0345\u0370-\u0373\u0376\u0377\u037a-\u037d\u037f\u0386\u0388-\u038a\u038c\u038e-\u03a1\u03a3-\u03f5\u03f7-\u0481\u048a-\u052f\u0531-\u0556\u0560-\u0588\u10a0-\u10c5\u10c7\u10cd\u10d0-\u10fa\u10fc-\u10ff\u13a0-\u13f5\u13f8-\u13fd\u1c80-\u1c8a\u1c90-\u1cba\u1cbd-\u1cbf\u1d00-\u1dbf\u1e00-\u1f15\u1f18-\u1f1d\u1f20-\u1f45\u1f48-\u1f4d\u1f50-\u1f57\u1f59\u1f5b\u1f5d\u1f5f-\u1f7d\u1f80-\u1fb4\u1fb6-\u1fbc\u1fbe\u1fc2-\u1fc4\u1fc6-\u1fcc\u1fd0-\u1fd3\u1fd6-\u1fdb\u1fe0-\u1fec\u1ff2-\u1ff4\u1ff6-\u1ffc\u2071\u207f\u2090-\u209c\u2102\u2107\u210a-\u2113\u2115\u2119-\u211d\u2124\u2126\u2128\u212a-\u212d\u212f-\u2134\u2139\u213c-\u213f\u2145-\u2149\u214e\u2160-\u217f\u2183\u2184\u24b6-\u24e9\u2c00-\u2ce4\u2ceb-\u2cee\u2cf2\u2cf3\u2d00-\u2d25\u2d27\u2d2d\ua640-\ua66d\ua680-\ua69d\ua722-\ua787\ua78b-\ua78e\ua790-\ua7dc\ua7f1-\ua7f6\ua7f8-\ua7fa\uab30-\uab5a\uab5c-\uab69\uab70-\uabbf\ufb00-\ufb06\ufb13-\ufb17\uff21-\uff3a\uff41-\uff5a\U00010400-\U0001044f\U000104b0-\U000104d3\U000104d8-\U000104fb\U00010570-\U0001057a\U0001057c-\U0001058a\U0001058c-\U00010592\U00010594\U00010595\U00010597-\U000105a1\U000105a3-\U000105b1\U000105b3-\U000105b9\U000105bb\U000105bc\U00010780\U00010783-\U00010785\U00010787-\U000107b0\U000107b2-\U000107ba\U00010c80-\U00010cb2\U00010cc0-\U00010cf2\U00010d50-\U00010d65\U00010d70-\U00010d85\U000118a0-\U000118df\U00016e40-\U00016e7f\U00016ea0-\U00016eb8\U00016ebb-\U00016ed3\U0001d400-\U0001d454\U0001d456-\U0001d49c\U0001d49e\U0001d49f\U0001d4a2\U0001d4a5\U0001d4a6\U0001d4a9-\U0001d4ac\U0001d4ae-\U0001d4b9\U0001d4bb\U0001d4bd-\U0001d4c3\U0001d4c5-\U0001d505\U0001d507-\U0001d50a\U0001d50d-\U0001d514\U0001d516-\U0001d51c\U0001d51e-\U0001d539\U0001d53b-\U0001d53e\U0001d540-\U0001d544\U0001d546\U0001d54a-\U0001d550\U0001d552-\U0001d6a5\U0001d6a8-\U0001d6c0\U0001d6c2-\U0001d6da\U0001d6dc-\U0001d6fa\U0001d6fc-\U0001d714\U0001d716-\U0001d734\U0001d736-\U0001d74e\U0001d750-\U0001d76e\U0001d770-\U0001d788\U0001d78a-\U0001d7a8\U0001d7aa-\U0001d7c2\U0001d7c4-\U0001d7cb\U0001df00-\U0001df09\U0001df0b-\U0001df1e\U0001df25-\U0001df2a\U0001e030-\U0001e06d\U0001e900-\U0001e943\U0001f130-\U0001f149\U0001f150-\U0001f169\U0001f170-\U0001f189][\u0027\u002e\u003a\u005e\u0060\u00a8\u00ad\u00af\u00b4\u00b7\u00b8\u02b0-\u02ff\u0374\u0375\u037a\u0384\u0385\u0387\u0559\u055f\u05f4\u0600-\u0605\u061c\u0640\u06dd\u06e5\u06e6\u070f\u07f4\u07f5\u07fa\u081a\u0824\u0828\u0888\u0890\u0891\u08c9\u08e2\u0971\u0e46\u0ec6\u10fc\u17d7\u180e\u1843\u1aa7\u1c78-\u1c7d\u1d2c-\u1d6a\u1d78\u1d9b-\u1dbf\u1fbd\u1fbf-\u1fc1\u1fcd-\u1fcf\u1fdd-\u1fdf\u1fed-\u1fef\u1ffd\u1ffe\u200b-\u200f\u2018\u2019\u2024\u2027\u202a-\u202e\u2060-\u2064\u2066-\u206f\u2071\u207f\u2090-\u209c\u2c7c\u2c7d\u2d6f\u2e2f\u3005\u3031-\u3035\u303b\u309b-\u309e\u30fc-\u30fe\ua015\ua4f8-\ua4fd\ua60c\ua67f\ua69c\ua69d\ua700-\ua721\ua770\ua788-\ua78a\ua7f1-\ua7f4\ua7f8\ua7f9\ua9cf\ua9e6\uaa70\uaadd\uaaf3\uaaf4\uab5b-\uab5f\uab69-\uab6b\ufbb2-\ufbc2\ufe13\ufe52\ufe55\ufeff\uff07\uff0e\uff1a\uff3e\uff40\uff70\uff9e\uff9f\uffe3\ufff9-\ufffb\U00010780-\U00010785\U00010787-\U000107b0\U000107b2-\U000107ba\U00010d4e\U00010d6f\U00010ec5\U000110bd\U000110cd\U00011dd9\U00013430-\U0001343f\U00016b40-\U00016b43\U00016d40-\U00016d42\U00016d6b\U00016d6c\U00016f93-\U00016f9f\U00016fe0\U00016fe1\U00016fe3\U00016ff2\U00016ff3\U0001aff0-\U0001aff3\U0001aff5-\U0001affb\U0001affd\U0001affe\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U0001e030-\U0001e06d\U0001e137-\U0001e13d\U0001e4eb\U0001e6ff\U0001e94b\U0001f3fb-\U0001f3ff\U000e0001\U000e0020-\U000e007f]*)Σ(?![\u0027\u002e\u003a\u005e\u0060\u00a8\u00ad\u00af\u00b4\u00b7\u00b8\u02b0-\u02ff\u0374\u0375\u037a\u0384\u0385\u0387\u0559\u055f\u05f4\u0600-\u0605\u061c\u0640\u06dd\u06e5\u06e6\u070f\u07f4\u07f5\u07fa\u081a\u0824\u0828\u0888\u0890\u0891\u08c9\u08e2\u0971\u0e46\u0ec6\u10fc\u17d7\u180e\u1843\u1aa7\u1c78-\u1c7d\u1d2c-\u1d6a\u1d78\u1d9b-\u1dbf\u1fbd\u1fbf-\u1fc1\u1fcd-\u1fcf\u1fdd-\u1fdf\u1fed-\u1fef\u1ffd\u1ffe\u200b-\u200f\u2018\u2019\u2024\u2027\u202a-\u202e\u2060-\u2064\u2066-\u206f\u2071\u207f\u2090-\u209c\u2c7c\u2c7d\u2d6f\u2e2f\u3005\u3031-\u3035\u303b\u309b-\u309e\u30fc-\u30fe\ua015\ua4f8-\ua4fd\ua60c\ua67f\ua69c\ua69d\ua700-\ua721\ua770\ua788-\ua78a\ua7f1-\ua7f4\ua7f8\ua7f9\ua9cf\ua9e6\uaa70\uaadd\uaaf3\uaaf4\uab5b-\uab5f\uab69-\uab6b\ufbb2-\ufbc2\ufe13\ufe52\ufe55\ufeff\uff07\uff0e\uff1a\uff3e\uff40\uff70\uff9e\uff9f\uffe3\ufff9-\ufffb\U00010780-\U00010785\U00010787-\U000107b0\U000107b2-\U000107ba\U00010d4e\U00010d6f\U00010ec5\U000110bd\U000110cd\U00011dd9\U00013430-\U0001343f\U00016b40-\U00016b43\U00016d40-\U00016d42\U00016d6b\U00016d6c\U00016f93-\U00016f9f\U00016fe0\U00016fe1\U00016fe3\U00016ff2\U00016ff3\U0001aff0-\U0001aff3\U0001aff5-\U0001affb\U0001affd\U0001affe\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U0001e030-\U0001e06d\U0001e137-\U0001e13d\U0001e4eb\U0001e6ff\U0001e94b\U0001f3fb-\U0001f3ff\U000e0001\U000e0020-\U000e007f]*[\u0041-\u005a\u0061-\u007a\u00aa\u00b5\u00ba\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u01ba\u01bc-\u01bf\u01c4-\u0293\u0296-\u02b8\u02c0\u02c1\u02e0-\u02e4\u0345\u0370-\u0373\u0376\u0377\u037a-\u037d\u037f\u0386\u0388-\u038a\u038c\u038e-\u03a1\u03a3-\u03f5\u03f7-\u0481\u048a-\u052f\u0531-\u0556\u0560-\u0588\u10a0-\u10c5\u10c7\u10cd\u10d0-\u10fa\u10fc-\u10ff\u13a0-\u13f5\u13f8-\u13fd\u1c80-\u1c8a\u1c90-\u1cba\u1cbd-\u1cbf\u1d00-\u1dbf\u1e00-\u1f15\u1f18-\u1f1d\u1f20-\u1f45\u1f48-\u1f4d\u1f50-\u1f57\u1f59\u1f5b\u1f5d\u1f5f-\u1f7d\u1f80-\u1fb4\u1fb6-\u1fbc\u1fbe\u1fc2-\u1fc4\u1fc6-\u1fcc\u1fd0-\u1fd3\u1fd6-\u1fdb\u1fe0-\u1fec\u1ff2-\u1ff4\u1ff6-\u1ffc\u2071\u207f\u2090-\u209c\u2102\u2107\u210a-\u2113\u2115\u2119-\u211d\u2124\u2126\u2128\u212a-\u212d\u212f-\u2134\u2139\u213c-\u213f\u2145-\u2149\u214e\u2160-\u217f\u2183\u2184\u24b6-\u24e9\u2c00-\u2ce4\u2ceb-\u2cee\u2cf2\u2cf3\u2d00-\u2d25\u2d27\u2d2d\ua640-\ua66d\ua680-\ua69d\ua722-\ua787\ua78b-\ua78e\ua790-\ua7dc\ua7f1-\ua7f6\ua7f8-\ua7fa\uab30-\uab5a\uab5c-\uab69\uab70-\uabbf\ufb00-\ufb06\ufb13-\ufb17\uff21-\uff3a\uff41-\uff5a\U00010400-\U0001044f\U000104b0-\U000104d3\U000104d8-\U000104fb\U00010570-\U0001057a\U0001057c-\U0001058a\U0001058c-\U00010592\U00010594\U00010595\U00010597-\U000105a1\U000105a3-\U000105b1\U000105b3-\U000105b9\U000105bb\U000105bc\U00010780\U00010783-\U00010785\U00010787-\U000107b0\U000107b2-\U000107ba\U00010c80-\U00010cb2\U00010cc0-\U00010cf2\U00010d50-\U00010d65\U00010d70-\U00010d85\U000118a0-\U000118df\U00016e40-\U00016e7f\U00016ea0-\U00016eb8\U00016ebb-\U00016ed3\U0001d400-\U0001d454\U0001d456-\U0001d49c\U0001d49e\U0001d49f\U0001d4a2\U0001d4a5\U0001d4a6\U0001d4a9-\U0001d4ac\U0001d4ae-\U0001d4b9\U0001d4bb\U0001d4bd-\U0001d4c3\U0001d4c5-\U0001d505\U0001d507-\U0001d50a\U0001d50d-\U0001d514\U0001d516-\U0001d51c\U0001d51e-\U0001d539\U0001d53b-\U0001d53e\U0001d540-\U0001d544\U0001d546\U0001d54a-\U0001d550\U0001d552-\U0001d6a5\U0001d6a8-\U0001d6c0\U0001d6c2-\U0001d6da\U0001d6dc-\U0001d6fa\U0001d6fc-\U0001d714\U0001d716-\U0001d734\U0001d736-\U0001d74e\U0001d750-\U0001d76e\U0001d770-\U0001d788\U0001d78a-\U0001d7a8\U0001d7aa-\U0001d7c2\U0001d7c4-\U0001d7cb\U0001df00-\U0001df09\U0001df0b-\U0001df1e\U0001df25-\U0001df2a\U0001e030-\U0001e06d\U0001e900-\U0001e943\U0001f130-\U0001f149\U0001f150-\U0001f169\U0001f170-\U0001f189])', 'ς', 'g') end as t
    from (select pg_catalog.regexp_replace(normalize(p_text, nfkd),
      '[\u0300-\u036f\u0483-\u0489\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a\u064b-\u065f\u0670'
    '\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed\u0711\u0730-\u074a\u07a6-\u07b0\u07eb-\u07f3\u07fd\u0816-'
    '\u0819\u081b-\u0823\u0825-\u0827\u0829-\u082d\u0859-\u085b\u0897-\u089f\u08ca-\u08e1\u08e3-\u0903\u093a-\u093c'
    '\u093e-\u094f\u0951-\u0957\u0962\u0963\u0981-\u0983\u09bc\u09be-\u09c4\u09c7\u09c8\u09cb-\u09cd\u09d7\u09e2'
    '\u09e3\u09fe\u0a01-\u0a03\u0a3c\u0a3e-\u0a42\u0a47\u0a48\u0a4b-\u0a4d\u0a51\u0a70\u0a71\u0a75\u0a81-\u0a83'
    '\u0abc\u0abe-\u0ac5\u0ac7-\u0ac9\u0acb-\u0acd\u0ae2\u0ae3\u0afa-\u0aff\u0b01-\u0b03\u0b3c\u0b3e-\u0b44\u0b47'
    '\u0b48\u0b4b-\u0b4d\u0b55-\u0b57\u0b62\u0b63\u0b82\u0bbe-\u0bc2\u0bc6-\u0bc8\u0bca-\u0bcd\u0bd7\u0c00-\u0c04'
    '\u0c3c\u0c3e-\u0c44\u0c46-\u0c48\u0c4a-\u0c4d\u0c55\u0c56\u0c62\u0c63\u0c81-\u0c83\u0cbc\u0cbe-\u0cc4\u0cc6-'
    '\u0cc8\u0cca-\u0ccd\u0cd5\u0cd6\u0ce2\u0ce3\u0cf3\u0d00-\u0d03\u0d3b\u0d3c\u0d3e-\u0d44\u0d46-\u0d48\u0d4a-'
    '\u0d4d\u0d57\u0d62\u0d63\u0d81-\u0d83\u0dca\u0dcf-\u0dd4\u0dd6\u0dd8-\u0ddf\u0df2\u0df3\u0e31\u0e34-\u0e3a'
    '\u0e47-\u0e4e\u0eb1\u0eb4-\u0ebc\u0ec8-\u0ece\u0f18\u0f19\u0f35\u0f37\u0f39\u0f3e\u0f3f\u0f71-\u0f84\u0f86'
    '\u0f87\u0f8d-\u0f97\u0f99-\u0fbc\u0fc6\u102b-\u103e\u1056-\u1059\u105e-\u1060\u1062-\u1064\u1067-\u106d\u1071-'
    '\u1074\u1082-\u108d\u108f\u109a-\u109d\u135d-\u135f\u1712-\u1715\u1732-\u1734\u1752\u1753\u1772\u1773\u17b4-'
    '\u17d3\u17dd\u180b-\u180d\u180f\u1885\u1886\u18a9\u1920-\u192b\u1930-\u193b\u1a17-\u1a1b\u1a55-\u1a5e\u1a60-'
    '\u1a7c\u1a7f\u1ab0-\u1add\u1ae0-\u1aeb\u1b00-\u1b04\u1b34-\u1b44\u1b6b-\u1b73\u1b80-\u1b82\u1ba1-\u1bad\u1be6-'
    '\u1bf3\u1c24-\u1c37\u1cd0-\u1cd2\u1cd4-\u1ce8\u1ced\u1cf4\u1cf7-\u1cf9\u1dc0-\u1dff\u20d0-\u20f0\u2cef-\u2cf1'
    '\u2d7f\u2de0-\u2dff\u302a-\u302f\u3099\u309a\ua66f-\ua672\ua674-\ua67d\ua69e\ua69f\ua6f0\ua6f1\ua802\ua806'
    '\ua80b\ua823-\ua827\ua82c\ua880\ua881\ua8b4-\ua8c5\ua8e0-\ua8f1\ua8ff\ua926-\ua92d\ua947-\ua953\ua980-\ua983'
    '\ua9b3-\ua9c0\ua9e5\uaa29-\uaa36\uaa43\uaa4c\uaa4d\uaa7b-\uaa7d\uaab0\uaab2-\uaab4\uaab7\uaab8\uaabe\uaabf'
    '\uaac1\uaaeb-\uaaef\uaaf5\uaaf6\uabe3-\uabea\uabec\uabed\ufb1e\ufe00-\ufe0f\ufe20-\ufe2f\U000101fd\U000102e0'
    '\U00010376-\U0001037a\U00010a01-\U00010a03\U00010a05\U00010a06\U00010a0c-\U00010a0f\U00010a38-\U00010a3a'
    '\U00010a3f\U00010ae5\U00010ae6\U00010d24-\U00010d27\U00010d69-\U00010d6d\U00010eab\U00010eac\U00010efa-'
    '\U00010eff\U00010f46-\U00010f50\U00010f82-\U00010f85\U00011000-\U00011002\U00011038-\U00011046\U00011070'
    '\U00011073\U00011074\U0001107f-\U00011082\U000110b0-\U000110ba\U000110c2\U00011100-\U00011102\U00011127-'
    '\U00011134\U00011145\U00011146\U00011173\U00011180-\U00011182\U000111b3-\U000111c0\U000111c9-\U000111cc'
    '\U000111ce\U000111cf\U0001122c-\U00011237\U0001123e\U00011241\U000112df-\U000112ea\U00011300-\U00011303'
    '\U0001133b\U0001133c\U0001133e-\U00011344\U00011347\U00011348\U0001134b-\U0001134d\U00011357\U00011362'
    '\U00011363\U00011366-\U0001136c\U00011370-\U00011374\U000113b8-\U000113c0\U000113c2\U000113c5\U000113c7-'
    '\U000113ca\U000113cc-\U000113d0\U000113d2\U000113e1\U000113e2\U00011435-\U00011446\U0001145e\U000114b0-'
    '\U000114c3\U000115af-\U000115b5\U000115b8-\U000115c0\U000115dc\U000115dd\U00011630-\U00011640\U000116ab-'
    '\U000116b7\U0001171d-\U0001172b\U0001182c-\U0001183a\U00011930-\U00011935\U00011937\U00011938\U0001193b-'
    '\U0001193e\U00011940\U00011942\U00011943\U000119d1-\U000119d7\U000119da-\U000119e0\U000119e4\U00011a01-'
    '\U00011a0a\U00011a33-\U00011a39\U00011a3b-\U00011a3e\U00011a47\U00011a51-\U00011a5b\U00011a8a-\U00011a99'
    '\U00011b60-\U00011b67\U00011c2f-\U00011c36\U00011c38-\U00011c3f\U00011c92-\U00011ca7\U00011ca9-\U00011cb6'
    '\U00011d31-\U00011d36\U00011d3a\U00011d3c\U00011d3d\U00011d3f-\U00011d45\U00011d47\U00011d8a-\U00011d8e'
    '\U00011d90\U00011d91\U00011d93-\U00011d97\U00011ef3-\U00011ef6\U00011f00\U00011f01\U00011f03\U00011f34-'
    '\U00011f3a\U00011f3e-\U00011f42\U00011f5a\U00013440\U00013447-\U00013455\U0001611e-\U0001612f\U00016af0-'
    '\U00016af4\U00016b30-\U00016b36\U00016f4f\U00016f51-\U00016f87\U00016f8f-\U00016f92\U00016fe4\U00016ff0'
    '\U00016ff1\U0001bc9d\U0001bc9e\U0001cf00-\U0001cf2d\U0001cf30-\U0001cf46\U0001d165-\U0001d169\U0001d16d-'
    '\U0001d172\U0001d17b-\U0001d182\U0001d185-\U0001d18b\U0001d1aa-\U0001d1ad\U0001d242-\U0001d244\U0001da00-'
    '\U0001da36\U0001da3b-\U0001da6c\U0001da75\U0001da84\U0001da9b-\U0001da9f\U0001daa1-\U0001daaf\U0001e000-'
    '\U0001e006\U0001e008-\U0001e018\U0001e01b-\U0001e021\U0001e023\U0001e024\U0001e026-\U0001e02a\U0001e08f'
    '\U0001e130-\U0001e136\U0001e2ae\U0001e2ec-\U0001e2ef\U0001e4ec-\U0001e4ef\U0001e5ee\U0001e5ef\U0001e6e3'
    '\U0001e6e6\U0001e6ee\U0001e6ef\U0001e6f5\U0001e8d0-\U0001e8d6\U0001e944-\U0001e94a\U000e0100-\U000e01ef]', '', 'g') as t) m
  ) s
$$;

-- The distinct words of a text in the order they first appear, each cut to 64 characters.
create function private.search_words(p_text text) returns text[]
language sql immutable parallel safe set search_path = '' as $$
  select coalesce(pg_catalog.array_agg(w.word order by w.first), '{}')
  from (
    select pg_catalog.left(s.word, 64) as word, pg_catalog.min(s.n) as first
    -- Text in ASCII alone (most filenames) needs none of the folding, and its letters and digits are a-z and 0-9.
    from (select coalesce(p_text, '') as t) x,
      pg_catalog.regexp_split_to_table(
        case when pg_catalog.octet_length(x.t) = pg_catalog.char_length(x.t) then pg_catalog.lower(x.t) else private.search_fold(x.t) end,
        case when pg_catalog.octet_length(x.t) = pg_catalog.char_length(x.t) then '[^a-z0-9]+' else
      '[^\u0030-\u0039\u0041-\u005a\u0061-\u007a\u00aa\u00b2\u00b3\u00b5\u00b9\u00ba\u00bc-\u00be\u00c0-\u00d6\u00d8-'
    '\u00f6\u00f8-\u02c1\u02c6-\u02d1\u02e0-\u02e4\u02ec\u02ee\u0370-\u0374\u0376\u0377\u037a-\u037d\u037f\u0386'
    '\u0388-\u038a\u038c\u038e-\u03a1\u03a3-\u03f5\u03f7-\u0481\u048a-\u052f\u0531-\u0556\u0559\u0560-\u0588\u05d0-'
    '\u05ea\u05ef-\u05f2\u0620-\u064a\u0660-\u0669\u066e\u066f\u0671-\u06d3\u06d5\u06e5\u06e6\u06ee-\u06fc\u06ff'
    '\u0710\u0712-\u072f\u074d-\u07a5\u07b1\u07c0-\u07ea\u07f4\u07f5\u07fa\u0800-\u0815\u081a\u0824\u0828\u0840-'
    '\u0858\u0860-\u086a\u0870-\u0887\u0889-\u088f\u08a0-\u08c9\u0904-\u0939\u093d\u0950\u0958-\u0961\u0966-\u096f'
    '\u0971-\u0980\u0985-\u098c\u098f\u0990\u0993-\u09a8\u09aa-\u09b0\u09b2\u09b6-\u09b9\u09bd\u09ce\u09dc\u09dd'
    '\u09df-\u09e1\u09e6-\u09f1\u09f4-\u09f9\u09fc\u0a05-\u0a0a\u0a0f\u0a10\u0a13-\u0a28\u0a2a-\u0a30\u0a32\u0a33'
    '\u0a35\u0a36\u0a38\u0a39\u0a59-\u0a5c\u0a5e\u0a66-\u0a6f\u0a72-\u0a74\u0a85-\u0a8d\u0a8f-\u0a91\u0a93-\u0aa8'
    '\u0aaa-\u0ab0\u0ab2\u0ab3\u0ab5-\u0ab9\u0abd\u0ad0\u0ae0\u0ae1\u0ae6-\u0aef\u0af9\u0b05-\u0b0c\u0b0f\u0b10'
    '\u0b13-\u0b28\u0b2a-\u0b30\u0b32\u0b33\u0b35-\u0b39\u0b3d\u0b5c\u0b5d\u0b5f-\u0b61\u0b66-\u0b6f\u0b71-\u0b77'
    '\u0b83\u0b85-\u0b8a\u0b8e-\u0b90\u0b92-\u0b95\u0b99\u0b9a\u0b9c\u0b9e\u0b9f\u0ba3\u0ba4\u0ba8-\u0baa\u0bae-'
    '\u0bb9\u0bd0\u0be6-\u0bf2\u0c05-\u0c0c\u0c0e-\u0c10\u0c12-\u0c28\u0c2a-\u0c39\u0c3d\u0c58-\u0c5a\u0c5c\u0c5d'
    '\u0c60\u0c61\u0c66-\u0c6f\u0c78-\u0c7e\u0c80\u0c85-\u0c8c\u0c8e-\u0c90\u0c92-\u0ca8\u0caa-\u0cb3\u0cb5-\u0cb9'
    '\u0cbd\u0cdc-\u0cde\u0ce0\u0ce1\u0ce6-\u0cef\u0cf1\u0cf2\u0d04-\u0d0c\u0d0e-\u0d10\u0d12-\u0d3a\u0d3d\u0d4e'
    '\u0d54-\u0d56\u0d58-\u0d61\u0d66-\u0d78\u0d7a-\u0d7f\u0d85-\u0d96\u0d9a-\u0db1\u0db3-\u0dbb\u0dbd\u0dc0-\u0dc6'
    '\u0de6-\u0def\u0e01-\u0e30\u0e32\u0e33\u0e40-\u0e46\u0e50-\u0e59\u0e81\u0e82\u0e84\u0e86-\u0e8a\u0e8c-\u0ea3'
    '\u0ea5\u0ea7-\u0eb0\u0eb2\u0eb3\u0ebd\u0ec0-\u0ec4\u0ec6\u0ed0-\u0ed9\u0edc-\u0edf\u0f00\u0f20-\u0f33\u0f40-'
    '\u0f47\u0f49-\u0f6c\u0f88-\u0f8c\u1000-\u102a\u103f-\u1049\u1050-\u1055\u105a-\u105d\u1061\u1065\u1066\u106e-'
    '\u1070\u1075-\u1081\u108e\u1090-\u1099\u10a0-\u10c5\u10c7\u10cd\u10d0-\u10fa\u10fc-\u1248\u124a-\u124d\u1250-'
    '\u1256\u1258\u125a-\u125d\u1260-\u1288\u128a-\u128d\u1290-\u12b0\u12b2-\u12b5\u12b8-\u12be\u12c0\u12c2-\u12c5'
    '\u12c8-\u12d6\u12d8-\u1310\u1312-\u1315\u1318-\u135a\u1369-\u137c\u1380-\u138f\u13a0-\u13f5\u13f8-\u13fd\u1401'
    '-\u166c\u166f-\u167f\u1681-\u169a\u16a0-\u16ea\u16ee-\u16f8\u1700-\u1711\u171f-\u1731\u1740-\u1751\u1760-'
    '\u176c\u176e-\u1770\u1780-\u17b3\u17d7\u17dc\u17e0-\u17e9\u17f0-\u17f9\u1810-\u1819\u1820-\u1878\u1880-\u1884'
    '\u1887-\u18a8\u18aa\u18b0-\u18f5\u1900-\u191e\u1946-\u196d\u1970-\u1974\u1980-\u19ab\u19b0-\u19c9\u19d0-\u19da'
    '\u1a00-\u1a16\u1a20-\u1a54\u1a80-\u1a89\u1a90-\u1a99\u1aa7\u1b05-\u1b33\u1b45-\u1b4c\u1b50-\u1b59\u1b83-\u1ba0'
    '\u1bae-\u1be5\u1c00-\u1c23\u1c40-\u1c49\u1c4d-\u1c7d\u1c80-\u1c8a\u1c90-\u1cba\u1cbd-\u1cbf\u1ce9-\u1cec\u1cee'
    '-\u1cf3\u1cf5\u1cf6\u1cfa\u1d00-\u1dbf\u1e00-\u1f15\u1f18-\u1f1d\u1f20-\u1f45\u1f48-\u1f4d\u1f50-\u1f57\u1f59'
    '\u1f5b\u1f5d\u1f5f-\u1f7d\u1f80-\u1fb4\u1fb6-\u1fbc\u1fbe\u1fc2-\u1fc4\u1fc6-\u1fcc\u1fd0-\u1fd3\u1fd6-\u1fdb'
    '\u1fe0-\u1fec\u1ff2-\u1ff4\u1ff6-\u1ffc\u2070\u2071\u2074-\u2079\u207f-\u2089\u2090-\u209c\u2102\u2107\u210a-'
    '\u2113\u2115\u2119-\u211d\u2124\u2126\u2128\u212a-\u212d\u212f-\u2139\u213c-\u213f\u2145-\u2149\u214e\u2150-'
    '\u2189\u2460-\u249b\u24ea-\u24ff\u2776-\u2793\u2c00-\u2ce4\u2ceb-\u2cee\u2cf2\u2cf3\u2cfd\u2d00-\u2d25\u2d27'
    '\u2d2d\u2d30-\u2d67\u2d6f\u2d80-\u2d96\u2da0-\u2da6\u2da8-\u2dae\u2db0-\u2db6\u2db8-\u2dbe\u2dc0-\u2dc6\u2dc8-'
    '\u2dce\u2dd0-\u2dd6\u2dd8-\u2dde\u2e2f\u3005-\u3007\u3021-\u3029\u3031-\u3035\u3038-\u303c\u3041-\u3096\u309d-'
    '\u309f\u30a1-\u30fa\u30fc-\u30ff\u3105-\u312f\u3131-\u318e\u3192-\u3195\u31a0-\u31bf\u31f0-\u31ff\u3220-\u3229'
    '\u3248-\u324f\u3251-\u325f\u3280-\u3289\u32b1-\u32bf\u3400-\u4dbf\u4e00-\ua48c\ua4d0-\ua4fd\ua500-\ua60c\ua610'
    '-\ua62b\ua640-\ua66e\ua67f-\ua69d\ua6a0-\ua6ef\ua717-\ua71f\ua722-\ua788\ua78b-\ua7dc\ua7f1-\ua801\ua803-'
    '\ua805\ua807-\ua80a\ua80c-\ua822\ua830-\ua835\ua840-\ua873\ua882-\ua8b3\ua8d0-\ua8d9\ua8f2-\ua8f7\ua8fb\ua8fd'
    '\ua8fe\ua900-\ua925\ua930-\ua946\ua960-\ua97c\ua984-\ua9b2\ua9cf-\ua9d9\ua9e0-\ua9e4\ua9e6-\ua9fe\uaa00-\uaa28'
    '\uaa40-\uaa42\uaa44-\uaa4b\uaa50-\uaa59\uaa60-\uaa76\uaa7a\uaa7e-\uaaaf\uaab1\uaab5\uaab6\uaab9-\uaabd\uaac0'
    '\uaac2\uaadb-\uaadd\uaae0-\uaaea\uaaf2-\uaaf4\uab01-\uab06\uab09-\uab0e\uab11-\uab16\uab20-\uab26\uab28-\uab2e'
    '\uab30-\uab5a\uab5c-\uab69\uab70-\uabe2\uabf0-\uabf9\uac00-\ud7a3\ud7b0-\ud7c6\ud7cb-\ud7fb\uf900-\ufa6d\ufa70'
    '-\ufad9\ufb00-\ufb06\ufb13-\ufb17\ufb1d\ufb1f-\ufb28\ufb2a-\ufb36\ufb38-\ufb3c\ufb3e\ufb40\ufb41\ufb43\ufb44'
    '\ufb46-\ufbb1\ufbd3-\ufd3d\ufd50-\ufd8f\ufd92-\ufdc7\ufdf0-\ufdfb\ufe70-\ufe74\ufe76-\ufefc\uff10-\uff19\uff21'
    '-\uff3a\uff41-\uff5a\uff66-\uffbe\uffc2-\uffc7\uffca-\uffcf\uffd2-\uffd7\uffda-\uffdc\U00010000-\U0001000b'
    '\U0001000d-\U00010026\U00010028-\U0001003a\U0001003c\U0001003d\U0001003f-\U0001004d\U00010050-\U0001005d'
    '\U00010080-\U000100fa\U00010107-\U00010133\U00010140-\U00010178\U0001018a\U0001018b\U00010280-\U0001029c'
    '\U000102a0-\U000102d0\U000102e1-\U000102fb\U00010300-\U00010323\U0001032d-\U0001034a\U00010350-\U00010375'
    '\U00010380-\U0001039d\U000103a0-\U000103c3\U000103c8-\U000103cf\U000103d1-\U000103d5\U00010400-\U0001049d'
    '\U000104a0-\U000104a9\U000104b0-\U000104d3\U000104d8-\U000104fb\U00010500-\U00010527\U00010530-\U00010563'
    '\U00010570-\U0001057a\U0001057c-\U0001058a\U0001058c-\U00010592\U00010594\U00010595\U00010597-\U000105a1'
    '\U000105a3-\U000105b1\U000105b3-\U000105b9\U000105bb\U000105bc\U000105c0-\U000105f3\U00010600-\U00010736'
    '\U00010740-\U00010755\U00010760-\U00010767\U00010780-\U00010785\U00010787-\U000107b0\U000107b2-\U000107ba'
    '\U00010800-\U00010805\U00010808\U0001080a-\U00010835\U00010837\U00010838\U0001083c\U0001083f-\U00010855'
    '\U00010858-\U00010876\U00010879-\U0001089e\U000108a7-\U000108af\U000108e0-\U000108f2\U000108f4\U000108f5'
    '\U000108fb-\U0001091b\U00010920-\U00010939\U00010940-\U00010959\U00010980-\U000109b7\U000109bc-\U000109cf'
    '\U000109d2-\U00010a00\U00010a10-\U00010a13\U00010a15-\U00010a17\U00010a19-\U00010a35\U00010a40-\U00010a48'
    '\U00010a60-\U00010a7e\U00010a80-\U00010a9f\U00010ac0-\U00010ac7\U00010ac9-\U00010ae4\U00010aeb-\U00010aef'
    '\U00010b00-\U00010b35\U00010b40-\U00010b55\U00010b58-\U00010b72\U00010b78-\U00010b91\U00010ba9-\U00010baf'
    '\U00010c00-\U00010c48\U00010c80-\U00010cb2\U00010cc0-\U00010cf2\U00010cfa-\U00010d23\U00010d30-\U00010d39'
    '\U00010d40-\U00010d65\U00010d6f-\U00010d85\U00010e60-\U00010e7e\U00010e80-\U00010ea9\U00010eb0\U00010eb1'
    '\U00010ec2-\U00010ec7\U00010f00-\U00010f27\U00010f30-\U00010f45\U00010f51-\U00010f54\U00010f70-\U00010f81'
    '\U00010fb0-\U00010fcb\U00010fe0-\U00010ff6\U00011003-\U00011037\U00011052-\U0001106f\U00011071\U00011072'
    '\U00011075\U00011083-\U000110af\U000110d0-\U000110e8\U000110f0-\U000110f9\U00011103-\U00011126\U00011136-'
    '\U0001113f\U00011144\U00011147\U00011150-\U00011172\U00011176\U00011183-\U000111b2\U000111c1-\U000111c4'
    '\U000111d0-\U000111da\U000111dc\U000111e1-\U000111f4\U00011200-\U00011211\U00011213-\U0001122b\U0001123f'
    '\U00011240\U00011280-\U00011286\U00011288\U0001128a-\U0001128d\U0001128f-\U0001129d\U0001129f-\U000112a8'
    '\U000112b0-\U000112de\U000112f0-\U000112f9\U00011305-\U0001130c\U0001130f\U00011310\U00011313-\U00011328'
    '\U0001132a-\U00011330\U00011332\U00011333\U00011335-\U00011339\U0001133d\U00011350\U0001135d-\U00011361'
    '\U00011380-\U00011389\U0001138b\U0001138e\U00011390-\U000113b5\U000113b7\U000113d1\U000113d3\U00011400-'
    '\U00011434\U00011447-\U0001144a\U00011450-\U00011459\U0001145f-\U00011461\U00011480-\U000114af\U000114c4'
    '\U000114c5\U000114c7\U000114d0-\U000114d9\U00011580-\U000115ae\U000115d8-\U000115db\U00011600-\U0001162f'
    '\U00011644\U00011650-\U00011659\U00011680-\U000116aa\U000116b8\U000116c0-\U000116c9\U000116d0-\U000116e3'
    '\U00011700-\U0001171a\U00011730-\U0001173b\U00011740-\U00011746\U00011800-\U0001182b\U000118a0-\U000118f2'
    '\U000118ff-\U00011906\U00011909\U0001190c-\U00011913\U00011915\U00011916\U00011918-\U0001192f\U0001193f'
    '\U00011941\U00011950-\U00011959\U000119a0-\U000119a7\U000119aa-\U000119d0\U000119e1\U000119e3\U00011a00'
    '\U00011a0b-\U00011a32\U00011a3a\U00011a50\U00011a5c-\U00011a89\U00011a9d\U00011ab0-\U00011af8\U00011bc0-'
    '\U00011be0\U00011bf0-\U00011bf9\U00011c00-\U00011c08\U00011c0a-\U00011c2e\U00011c40\U00011c50-\U00011c6c'
    '\U00011c72-\U00011c8f\U00011d00-\U00011d06\U00011d08\U00011d09\U00011d0b-\U00011d30\U00011d46\U00011d50-'
    '\U00011d59\U00011d60-\U00011d65\U00011d67\U00011d68\U00011d6a-\U00011d89\U00011d98\U00011da0-\U00011da9'
    '\U00011db0-\U00011ddb\U00011de0-\U00011de9\U00011ee0-\U00011ef2\U00011f02\U00011f04-\U00011f10\U00011f12-'
    '\U00011f33\U00011f50-\U00011f59\U00011fb0\U00011fc0-\U00011fd4\U00012000-\U00012399\U00012400-\U0001246e'
    '\U00012480-\U00012543\U00012f90-\U00012ff0\U00013000-\U0001342f\U00013441-\U00013446\U00013460-\U000143fa'
    '\U00014400-\U00014646\U00016100-\U0001611d\U00016130-\U00016139\U00016800-\U00016a38\U00016a40-\U00016a5e'
    '\U00016a60-\U00016a69\U00016a70-\U00016abe\U00016ac0-\U00016ac9\U00016ad0-\U00016aed\U00016b00-\U00016b2f'
    '\U00016b40-\U00016b43\U00016b50-\U00016b59\U00016b5b-\U00016b61\U00016b63-\U00016b77\U00016b7d-\U00016b8f'
    '\U00016d40-\U00016d6c\U00016d70-\U00016d79\U00016e40-\U00016e96\U00016ea0-\U00016eb8\U00016ebb-\U00016ed3'
    '\U00016f00-\U00016f4a\U00016f50\U00016f93-\U00016f9f\U00016fe0\U00016fe1\U00016fe3\U00016ff2-\U00016ff6'
    '\U00017000-\U00018cd5\U00018cff-\U00018d1e\U00018d80-\U00018df2\U0001aff0-\U0001aff3\U0001aff5-\U0001affb'
    '\U0001affd\U0001affe\U0001b000-\U0001b122\U0001b132\U0001b150-\U0001b152\U0001b155\U0001b164-\U0001b167'
    '\U0001b170-\U0001b2fb\U0001bc00-\U0001bc6a\U0001bc70-\U0001bc7c\U0001bc80-\U0001bc88\U0001bc90-\U0001bc99'
    '\U0001ccf0-\U0001ccf9\U0001d2c0-\U0001d2d3\U0001d2e0-\U0001d2f3\U0001d360-\U0001d378\U0001d400-\U0001d454'
    '\U0001d456-\U0001d49c\U0001d49e\U0001d49f\U0001d4a2\U0001d4a5\U0001d4a6\U0001d4a9-\U0001d4ac\U0001d4ae-'
    '\U0001d4b9\U0001d4bb\U0001d4bd-\U0001d4c3\U0001d4c5-\U0001d505\U0001d507-\U0001d50a\U0001d50d-\U0001d514'
    '\U0001d516-\U0001d51c\U0001d51e-\U0001d539\U0001d53b-\U0001d53e\U0001d540-\U0001d544\U0001d546\U0001d54a-'
    '\U0001d550\U0001d552-\U0001d6a5\U0001d6a8-\U0001d6c0\U0001d6c2-\U0001d6da\U0001d6dc-\U0001d6fa\U0001d6fc-'
    '\U0001d714\U0001d716-\U0001d734\U0001d736-\U0001d74e\U0001d750-\U0001d76e\U0001d770-\U0001d788\U0001d78a-'
    '\U0001d7a8\U0001d7aa-\U0001d7c2\U0001d7c4-\U0001d7cb\U0001d7ce-\U0001d7ff\U0001df00-\U0001df1e\U0001df25-'
    '\U0001df2a\U0001e030-\U0001e06d\U0001e100-\U0001e12c\U0001e137-\U0001e13d\U0001e140-\U0001e149\U0001e14e'
    '\U0001e290-\U0001e2ad\U0001e2c0-\U0001e2eb\U0001e2f0-\U0001e2f9\U0001e4d0-\U0001e4eb\U0001e4f0-\U0001e4f9'
    '\U0001e5d0-\U0001e5ed\U0001e5f0-\U0001e5fa\U0001e6c0-\U0001e6de\U0001e6e0-\U0001e6e2\U0001e6e4\U0001e6e5'
    '\U0001e6e7-\U0001e6ed\U0001e6f0-\U0001e6f4\U0001e6fe\U0001e6ff\U0001e7e0-\U0001e7e6\U0001e7e8-\U0001e7eb'
    '\U0001e7ed\U0001e7ee\U0001e7f0-\U0001e7fe\U0001e800-\U0001e8c4\U0001e8c7-\U0001e8cf\U0001e900-\U0001e943'
    '\U0001e94b\U0001e950-\U0001e959\U0001ec71-\U0001ecab\U0001ecad-\U0001ecaf\U0001ecb1-\U0001ecb4\U0001ed01-'
    '\U0001ed2d\U0001ed2f-\U0001ed3d\U0001ee00-\U0001ee03\U0001ee05-\U0001ee1f\U0001ee21\U0001ee22\U0001ee24'
    '\U0001ee27\U0001ee29-\U0001ee32\U0001ee34-\U0001ee37\U0001ee39\U0001ee3b\U0001ee42\U0001ee47\U0001ee49'
    '\U0001ee4b\U0001ee4d-\U0001ee4f\U0001ee51\U0001ee52\U0001ee54\U0001ee57\U0001ee59\U0001ee5b\U0001ee5d'
    '\U0001ee5f\U0001ee61\U0001ee62\U0001ee64\U0001ee67-\U0001ee6a\U0001ee6c-\U0001ee72\U0001ee74-\U0001ee77'
    '\U0001ee79-\U0001ee7c\U0001ee7e\U0001ee80-\U0001ee89\U0001ee8b-\U0001ee9b\U0001eea1-\U0001eea3\U0001eea5-'
    '\U0001eea9\U0001eeab-\U0001eebb\U0001f100-\U0001f10c\U0001fbf0-\U0001fbf9\U00020000-\U0002a6df\U0002a700-'
    '\U0002b81d\U0002b820-\U0002cead\U0002ceb0-\U0002ebe0\U0002ebf0-\U0002ee5d\U0002f800-\U0002fa1d\U00030000-'
    '\U0003134a\U00031350-\U00033479]+' end) with ordinality s(word, n)
    where s.word <> ''
    group by 1
  ) w
$$;

-- An item's words: its filename, title, description, keywords, camera make, camera model and lens, in that
-- order, the first 512 distinct ones. The texts are cut as one, a line break between each: a line break is no
-- letter and cannot be skipped over by a final sigma, so the words are those of each text in turn.
create function private.item_search_words(p_filename text, p_metadata jsonb) returns text[]
language sql immutable parallel safe set search_path = '' as $$
  select (private.search_words(pg_catalog.concat_ws(E'\n', p_filename,
    case when pg_catalog.jsonb_typeof(p_metadata -> 'title') = 'string' then p_metadata ->> 'title' end,
    case when pg_catalog.jsonb_typeof(p_metadata -> 'description') = 'string' then p_metadata ->> 'description' end,
    case when pg_catalog.jsonb_typeof(p_metadata -> 'keywords') = 'array' then
      (select pg_catalog.string_agg(k.v #>> '{}', E'\n' order by k.i)
       from pg_catalog.jsonb_array_elements(p_metadata -> 'keywords') with ordinality k(v, i)
       where pg_catalog.jsonb_typeof(k.v) = 'string') end,
    case when pg_catalog.jsonb_typeof(p_metadata -> 'cameraMake') = 'string' then p_metadata ->> 'cameraMake' end,
    case when pg_catalog.jsonb_typeof(p_metadata -> 'cameraModel') = 'string' then p_metadata ->> 'cameraModel' end,
    case when pg_catalog.jsonb_typeof(p_metadata -> 'lens') = 'string' then p_metadata ->> 'lens' end)))[1:512]
$$;

-- What the index holds of an item. Costly enough that the planner reads the index rather than work it out per row.
create function private.item_search_doc(p_filename text, p_metadata jsonb) returns tsvector
language sql immutable parallel safe cost 10000 set search_path = '' as $$
  select pg_catalog.array_to_tsvector(private.item_search_words(p_filename, p_metadata))
$$;

-- A search's words as a tsquery of prefixes that must all be found, or null for none.
create function private.search_query(p_text text) returns tsquery
language sql immutable parallel safe set search_path = '' as $$
  select case when pg_catalog.cardinality(q.words) = 0 then null else (
    select pg_catalog.string_agg('''' || pg_catalog.replace(pg_catalog.replace(w.word, '\', '\\'), '''', '''''') || ''':*', ' & ' order by w.n)
    from pg_catalog.unnest(q.words) with ordinality w(word, n))::tsquery end
  from (select (private.search_words(p_text))[1:8] as words) q
$$;

-- An instant a search is bounded by: ISO 8601, within the dates a list can sort; null for none.
create function private.search_instant(p_value text, p_field text) returns timestamptz
language plpgsql immutable set search_path = '' as $$
declare
  v timestamptz;
begin
  if p_value is null then
    return null;
  end if;
  if p_value ~ '^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?))?$' then
    begin
      v := p_value::timestamptz;
    exception when others then
      v := null;
    end;
  end if;
  if v is null or not private.is_sortable_time(v) then
    raise exception using errcode = 'P0001', message = 'validation/invalid', detail = 'This is not a date.',
      hint = pg_catalog.json_build_object('field', p_field)::text;
  end if;
  return v;
end $$;

create index items_search_doc_idx on public.items using gin (private.item_search_doc(filename, metadata))
  where status = 'ready' and deleted_at is null;

-- [Note: A search is planned with its values]
-- A search is one statement with only the conditions asked for, planned with its values: a condition written
-- `(p_query is null or doc @@ p_query)` keeps a plan made before the values are known (SQL functions before
-- Postgres 18, generic plans) off every index. The values travel as parameters ($1 to $12), never in the text.

-- The statement of a search (parameters in the order of private.search_item_ids), newest first by keyset.
-- Words read the words index. Filters alone across albums read each album's newest first (items_album_taken_idx)
-- and keep the newest of all: an index over every album's items would also be taken for an album's own page.
create function private.search_sql(p_query tsquery, p_album_id uuid, p_min_rating numeric, p_label text,
                                   p_kind text, p_from timestamptz, p_to timestamptz, p_uploader_id uuid,
                                   p_favorites_only boolean, p_after_taken timestamptz, p_after_id uuid,
                                   p_limit integer)
returns text
language sql immutable set search_path = '' as $$
  select case when p_query is null and p_album_id is null
    then 'select k.id, k.sort_taken from private.my_album_ids() a(album_id) cross join lateral ('
         || 'select i.id, i.sort_taken from public.items i where i.album_id = a.album_id'
         || c.conds || ' order by i.sort_taken desc, i.id desc limit $12) k order by k.sort_taken desc, k.id desc limit $12'
    else 'select i.id, i.sort_taken from public.items i where i.album_id in (select private.my_album_ids())'
         || c.conds || ' order by i.sort_taken desc, i.id desc limit $12'
  end
  from (select ' and i.status = ''ready'' and i.deleted_at is null'
    || case when p_query is not null then ' and private.item_search_doc(i.filename, i.metadata) @@ $1' else '' end
    || case when p_album_id is not null then ' and i.album_id = $2' else '' end
    || case when p_min_rating is not null then ' and (case when pg_catalog.jsonb_typeof(i.metadata -> ''rating'') = ''number'''
                                               || ' then (i.metadata ->> ''rating'')::numeric end) >= $3' else '' end
    || case when p_label is not null then ' and i.metadata ->> ''label'' = $4' else '' end
    || case when p_kind is not null then ' and i.kind = $5' else '' end
    || case when p_from is not null then ' and i.sort_taken >= $6' else '' end
    || case when p_to is not null then ' and i.sort_taken < $7' else '' end
    || case when p_uploader_id is not null then ' and i.uploader_id = $8' else '' end
    || case when coalesce(p_favorites_only, false)
            then ' and exists (select 1 from public.favorites f where f.item_id = i.id and f.user_id = (select auth.uid()))' else '' end
    || case when p_after_taken is not null then ' and (i.sort_taken, i.id) < ($10, $11)' else '' end as conds) c
$$;

-- The ids of the caller's search results, newest first, after the keyset position (p_after_taken, p_after_id).
-- Runs as its definer ([Note: Search runs as its definer]): the caller's albums and ready items only.
create function private.search_item_ids(p_query tsquery, p_album_id uuid, p_min_rating numeric, p_label text,
                                        p_kind text, p_from timestamptz, p_to timestamptz, p_uploader_id uuid,
                                        p_favorites_only boolean, p_after_taken timestamptz, p_after_id uuid,
                                        p_limit integer)
returns table (id uuid, sort_taken timestamptz)
language plpgsql stable security definer set search_path = '' as $$
begin
  if (select auth.uid()) is null or p_limit is null or p_limit < 1 or p_limit > 501 then
    return;
  end if;
  return query execute private.search_sql(p_query, p_album_id, p_min_rating, p_label, p_kind, p_from, p_to,
                                          p_uploader_id, p_favorites_only, p_after_taken, p_after_id, p_limit)
    using p_query, p_album_id, p_min_rating, p_label, p_kind, p_from, p_to, p_uploader_id, p_favorites_only,
          p_after_taken, p_after_id, p_limit;
end $$;

create function public.search_items(p_text text default null, p_album_id uuid default null,
                                    p_min_rating numeric default null, p_label text default null,
                                    p_kind text default null, p_from text default null, p_to text default null,
                                    p_uploader_id uuid default null, p_favorites_only boolean default false,
                                    p_after_taken timestamptz default null, p_after_id uuid default null,
                                    p_limit integer default 100)
returns setof public.items
language plpgsql stable security invoker set search_path = '' as $$
declare
  v_from timestamptz;
  v_to timestamptz;
  v_query tsquery;
begin
  if (select auth.uid()) is null then
    raise exception using errcode = 'P0001', message = 'album/not-found', detail = 'Sign in first.';
  end if;
  if p_text is not null and pg_catalog.char_length(p_text) > 200 then
    raise exception using errcode = 'P0001', message = 'validation/invalid', detail = 'A search is at most 200 characters.', hint = '{"field":"text"}';
  end if;
  if p_min_rating is not null and p_min_rating not in (1, 2, 3, 4, 5) then
    raise exception using errcode = 'P0001', message = 'validation/invalid', detail = 'A rating is 1 to 5 stars.', hint = '{"field":"minRating"}';
  end if;
  if p_label is not null and p_label not in ('Red', 'Yellow', 'Green', 'Blue', 'Purple') then
    raise exception using errcode = 'P0001', message = 'validation/invalid', detail = 'Unknown colour label.', hint = '{"field":"label"}';
  end if;
  if p_kind is not null and p_kind not in ('image', 'video', 'file') then
    raise exception using errcode = 'P0001', message = 'validation/invalid', detail = 'Unknown kind.', hint = '{"field":"kind"}';
  end if;
  v_from := private.search_instant(p_from, 'from');
  v_to := private.search_instant(p_to, 'to');
  -- A page of up to 500, and one row more that tells whether another follows.
  if p_limit is null or p_limit < 1 or p_limit > 501 then
    raise exception using errcode = 'P0001', message = 'validation/invalid', detail = 'A page holds 1 to 500 items.', hint = '{"field":"limit"}';
  end if;
  if (p_after_taken is null) <> (p_after_id is null) then
    raise exception using errcode = 'P0001', message = 'validation/invalid', detail = 'This list position is not valid.', hint = '{"field":"cursor"}';
  end if;
  if p_album_id is not null and not exists (
       select 1 from public.album_members m join public.albums a on a.id = m.album_id
       where m.album_id = p_album_id and m.user_id = (select auth.uid()) and a.deleted_at is null) then
    raise exception using errcode = 'P0001', message = 'album/not-found', detail = 'This album does not exist or you are not a member of it.';
  end if;
  v_query := private.search_query(p_text);
  return query
    select i.*
    from private.search_item_ids(v_query, p_album_id, p_min_rating, p_label, p_kind, v_from, v_to, p_uploader_id,
                                 coalesce(p_favorites_only, false), p_after_taken, p_after_id, p_limit) k
    join public.items i on i.id = k.id
    order by k.sort_taken desc, k.id desc;
end $$;

revoke all on function private.search_fold(text), private.search_words(text), private.item_search_words(text, jsonb),
  private.item_search_doc(text, jsonb), private.search_query(text), private.search_instant(text, text),
  private.search_item_ids(tsquery, uuid, numeric, text, text, timestamptz, timestamptz, uuid, boolean, timestamptz, uuid, integer),
  private.search_sql(tsquery, uuid, numeric, text, text, timestamptz, timestamptz, uuid, boolean, timestamptz, uuid, integer)
  from public, anon, authenticated;
-- search_items runs as the caller: it needs these. The last checks the caller itself ([Note: Search runs as its definer]).
grant execute on function private.search_fold(text), private.search_words(text), private.search_query(text),
  private.search_instant(text, text), private.is_sortable_time(timestamptz),
  private.search_item_ids(tsquery, uuid, numeric, text, text, timestamptz, timestamptz, uuid, boolean, timestamptz, uuid, integer)
  to authenticated;
revoke all on function public.search_items(text, uuid, numeric, text, text, text, text, uuid, boolean, timestamptz, uuid, integer)
  from public, anon;
grant execute on function public.search_items(text, uuid, numeric, text, text, text, text, uuid, boolean, timestamptz, uuid, integer)
  to authenticated;
