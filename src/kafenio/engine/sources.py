"""The published sources of the rules, by the short keys the specification's option tables use.

``shared/rules/README.md`` §7 defines the keys, ``fishing-relatives.md`` §D those of Pişti, Xeri
and Diloti, and ``SOURCES.md`` gives their addresses. Every :class:`~kafenio.engine.rules.Option`
and :class:`~kafenio.engine.rules.Preset` names its sources by these keys (``sources``); a rule
book refuses a key that is not here. A title is the source's own name (a site and its page, a
newspaper, a program): it is shown as it is, never translated.

One key is not the specification's: ``WP-BIR``, the later English Wikipedia wording that
``biriba.md`` cites for ``no_full_run_bonus`` without a key (``SOURCES.md`` lists it under "—").

>>> SOURCES["PG-BIR"].title
'pagat.com: Biriba'
>>> SOURCES["JW"].urls_for("basra")[0]
'https://www.jawaker.com/en/rules/basra'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from kafenio.i18n import _


@dataclass(frozen=True)
class Source:
    """One published source of the rules.

    Args:
        key: the short key of the specification's tables (``PG-BIR``, ``S0``…).
        title: its name as published (not translated).
        urls: its addresses, the main one first.
        by_game: for a key whose pages cover several games, each game's own addresses.
    """

    key: str
    title: str
    urls: tuple[str, ...]
    by_game: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def urls_for(self, game: str) -> tuple[str, ...]:
        """The addresses about ``game`` (all of them when the key is not split by game)."""
        return self.by_game.get(game, self.urls)

    def describe(self, game: str) -> dict[str, object]:
        """JSON-ready ``{"key", "title", "urls"}`` of the pages about ``game``."""
        return {"key": self.key, "title": self.title, "urls": list(self.urls_for(game))}


_JW_BIRIBA = ("https://blog.jawaker.com/en/biriba-rules-en/", "https://blog.jawaker.com/biriba-rules-gr/amp")
_JW_BASRA = ("https://www.jawaker.com/en/rules/basra", "https://blog.jawaker.com/en/basra-rules-en/")

_TABLE = [
    # seeds (SOURCES.md §1 "Seeds")
    Source("S0", "Wikipedia (en): Biriba", (
        "https://en.wikipedia.org/wiki/Biriba",
        "https://fullpacinfinity.netlify.app/rules-greek-card-game-xeric-definition")),
    Source("S1", "catsatcards.com: How to Play Biriba", ("http://www.catsatcards.com/Games/Biriba.html",)),
    Source("S2", "Wikipedia (en): Bastra", ("https://en.wikipedia.org/wiki/Bastra", "https://xxg.pages.dev/0xL0Jhc3RyYQ")),
    Source("S3", "ludopoli.us: Buraco rules", ("https://www.ludopoli.us/buraco_rules.aspx",)),
    # Biriba
    Source("PG-BIR", "pagat.com: Biriba", ("https://www.pagat.com/rummy/biriba.html",)),
    Source("WP-BIR", "Wikipedia (en): Biriba (wikisum.wiki)", ("https://wikisum.wiki/wiki/Biriba",)),
    Source("WP-BIR-OLD", "Wikipedia (en): Biriba (en-academic, the-uncensored-wiki)", (
        "https://en-academic.com/dic.nsf/enwiki/3203390",
        "http://the-uncensored-wiki.com:20082/articles/b/i/r/Biriba.html")),
    Source("EL-WP", "Βικιπαίδεια: Μπιρίμπα (2007)", (
        "https://dumps.wikimedia.your.org/other/static_html_dumps/April_2007/el/wikipedia-el-html.7z",)),
    Source("UN", "rec.games.playing-cards: Biriba", (
        "https://groups.google.com/g/rec.games.playing-cards/c/OZovuD6iPwk",)),
    Source("SCR", "Scribd: 2-Player Card Games", ("https://pl.scribd.com/document/86051218/2-Player-Card-Games",)),
    Source("ZOO", "zoo.gr: Καταμέτρηση Πόντων", ("https://support.zoo.gr/421576-Καταμέτρηση-Πόντων",)),
    Source("JW", "Jawaker: Biriba, Basra", _JW_BIRIBA + _JW_BASRA,
           by_game={"biriba": _JW_BIRIBA, "basra": _JW_BASRA}),
    Source("CRP", "cardrulesplus.com: Biriba", ("https://cardrulesplus.com/games/biriba/",)),
    # Buraco / Burraco
    Source("PG-BUR", "pagat.com: Buraco", ("https://www.pagat.com/rummy/buraco.html",)),
    Source("PG-BRR", "pagat.com: Burraco", ("https://www.pagat.com/rummy/burraco.html",)),
    Source("PJ", "PlayJoy: Buraco, Buraco STBL", (
        "https://playjoy.com/pt-br/buraco/regras", "https://playjoy.com/cs/buraco-stbl/pravidla")),
    Source("GV", "GameVelvet: Buraco", ("https://gamevelvet.com/buraco-canastra-online/rules",)),
    Source("PLP", "GameDesire: Buraco 2009", (
        "https://www.gamedesire.com/nl/game/buraco-2009/help/gameplay",
        "https://blog.pokerlivepro.com/iw/game/buraco-2009/help/gameplay")),
    Source("GD-F", "GameDesire: Buraco Fechado", ("https://www.gamedesire.com/nl/game/buraco-fechado/help",)),
    Source("JOG", "Jogatina: Buraco Fechado STBL", ("https://jogatina.com/regras-como-jogar-buraco-fechado-stbl.html",)),
    Source("JDR", "Jogos do Rei: STBL", (
        "https://www.jogosdorei.com.br/blog/2026/03/16/stbl-o-guia-definitivo-do-buraco-sem-trinca-bate-limpo",)),
    Source("MUNDI", "Mundi Games: Buraco", ("http://www.mundigames.com/multiplayer/buraco/rules/",)),
    Source("CO", "Canastra Online: Regras", ("https://canastra.online/pt/regras",)),
    Source("PTWP", "Wikipédia (pt): Buraco (jogo de cartas)", (
        "http://pt.wikipedia.org/wiki/Buraco_(jogo_de_cartas)",
        "https://wikizero.org/wiki/pt/Buraco_(jogo_de_cartas)",
        "http://entretenimentork.blogspot.com/2011/10/buraco-jogo-de-cartas.html")),
    Source("TRIB", "Tribuna de Minas: Canastra", (
        "https://tribunademinas.com.br/colunas/maistendencias/"
        "joga-canastra-origem-nao-e-brasileira-mas-esta-proxima-do-rio-grande-do-sul",)),
    Source("EB", "eBurraco", (
        "https://eburraco.com/?p=737", "https://eburraco.com/?p=2781", "https://eburraco.com/?p=2345",
        "http://www.eburraco.com/punteggi-burraco-cosa-ricordare/", "https://eburraco.com/punteggio-termini-burraco",
        "https://eburraco.com/tag/burraco-pulito/page/2", "https://eburraco.com/?p=4147",
        "https://eburraco.com/calare-le-carte-e-posizionarle-nozioni-per-principianti",
        "https://eburraco.com/la-raccolta-dal-monte-nel-burraco-internazionale",
        "https://eburraco.com/le-regole-della-raccolta-dal-monte-nel-burraco", "https://eburraco.com/?p=3496",
        "http://www.eburraco.com/burraco-chiuso-variante/", "https://eburraco.com/pinella-burraco",
        "https://www.eburraco.com/matte-termini-burraco/",
        "https://www.eburraco.com/le-matte-e-lo-scarto-nel-gioco-del-burraco/")),
    Source("FPDF", "Regolamento del Burraco (file-pdf.it)", (
        "https://www.file-pdf.it/2016/10/10/regolamento-del-burraco/preview/page/3/",
        "https://www.file-pdf.it/2016/10/10/regolamento-del-burraco/preview/page/4/")),
    Source("CPO", "casinopokeronline.it: Regole del Burraco", (
        "http://www.casinopokeronline.it/regole-burraco-e-scala-40/regole-del-burraco-pozzetti-e-chiusura-parziale.html",
        "http://www.casinopokeronline.it/regole-burraco-e-scala-40/regole-del-burraco-chiusura-della-mano.html")),
    Source("ONM", "onmadesoft: Burraco Italiano, punti", ("https://api.onmadesoft.com/burraco-italiano/punti-burraco.html",)),
    Source("SISAL", "Sisal: Regole Burraco", ("https://sisal.it/regole-burraco",)),
    Source("BPLUS", "buraco.plus: Regole", ("https://www.buraco.plus/regole-2/",)),
    Source("ILB", "Il Burraco Online (blog)", ("http://ilburracoonlineweb.blogspot.com/2015/07/",)),
    Source("LRB", "La Rivista del Burraco", (
        "http://www.larivistadelburraco.it/chiusura/", "http://www.larivistadelburraco.it/il-glossario-del-burraco/")),
    Source("GT", "GameTwist: Burraco", ("https://www.gametwist.com/Card-Games/Burraco/",)),
    # Basra
    Source("PG-BAS", "pagat.com: Basra", ("https://www.pagat.com/fishing/basra.html",)),
    Source("CAC-BAS", "catsatcards.com: Basra", ("https://catsatcards.com/Games/Basra.html",)),
    Source("TGR", "telegra.ph: BASRA", ("https://telegra.ph/BASRA-12-02",)),
    Source("WK", "whiteknucklecards.com: Basra", ("http://whiteknucklecards.com/games/basra.html",)),
    Source("PISTI", "Pişti: de.zxc.wiki, lodige.com, gambiter.com, iskambilci.com, eightygames", (
        "https://de.zxc.wiki/wiki/Pisti", "https://www.lodige.com/en-global/pisti/",
        "https://gambiter.com/cards/fishing/pishti.html", "https://www.iskambilci.com/how-to-play-pishti/",
        "https://eightygames.wordpress.com/2014/04/03/pisti/")),
    Source("XERI", "Xeri: practicalgamingcenter.com, de.wiki.li, keonh4caikiwiau.blogspot.com, ultrafoodmess.com", (
        "https://www.practicalgamingcenter.com/how-to-play/xeri.html", "https://de.wiki.li/Xeri",
        "https://keonh4caikiwiau.blogspot.com/2021/12/4-player-xeri.html",
        "http://ultrafoodmess.com/rules/xeri-game-rules-how-to-play-xeri")),
    # Pişti, Xeri, Diloti (fishing-relatives.md §D)
    Source("PG-PIS", "pagat.com: Pişti", ("https://www.pagat.com/fishing/pishti.html",)),
    Source("PG-XER", "pagat.com: Xeri", ("https://www.pagat.com/fishing/xeri.html",)),
    Source("PG-DIL", "pagat.com: Diloti", ("https://www.pagat.com/fishing/diloti.html",)),
    Source("PG-KON", "pagat.com: Kontsina", ("https://www.pagat.com/fishing/kontsina.html",)),
    Source("OCG", "ocentra/ocentra-games (pagat pages)", ("https://github.com/ocentra/ocentra-games",)),
    Source("WP-DE-PIS", "Wikipedia (de): Pişti (de.zxc.wiki)", ("https://de.zxc.wiki/wiki/Pisti",)),
    Source("LOD", "lodige.com: Pişti", ("https://www.lodige.com/en-global/pisti/",)),
    Source("ISK", "iskambilci.com: How to play Pishti", ("https://www.iskambilci.com/how-to-play-pishti/",)),
    Source("EIG", "eightygames: Pişti", ("https://eightygames.wordpress.com/2014/04/03/pisti/",)),
    Source("GR-PIS", "gamerules.com: Pişti", ("https://gamerules.com/rules/pisti/",)),
    Source("TRN", "Milliyet, Hürriyet, Vatan: Pişti", (
        "https://www.milliyet.com.tr/oyun/pisti-nasil-oynanir-pisti-kagit-oyununun-kurallari-oynanilisi-ve-puanlama-sistemi-6208390",
        "https://www.hurriyet.com.tr/gundem/pisti-nasil-oynanir-pisti-kac-kagitla-oynanir-pisti-oyunun-kurallari-41456134",
        "https://www.gazetevatan.com/gundem/2026nin-en-populer-yilbasi-kart-oyunlari-iskambil-ile-evde-eglenceli-oyunlar-2338375")),
    Source("TRB", "Pisti (trantor.is)", ("https://trantor.is/content/7UkgSgYiKltRgcsQ/132-game11.html",)),
    Source("LDP", "LDPlayer: Pishti", ("https://apk.ldplayer.tw/games/pishti-apk.html",)),
    Source("PPB", "pishpirik.blogspot.com", ("http://pishpirik.blogspot.com/2013/07/the-game.html",)),
    Source("SKB", "selinkirca.github.io: Pişti", ("https://selinkirca.github.io/pisti_blog_sayfasi.html",)),
    Source("ERD", "ErdemAkz/Pisti_against_AI", ("https://github.com/ErdemAkz/Pisti_against_AI",)),
    Source("CRA", "crainbf/pisti", ("https://github.com/crainbf/pisti/blob/master/README.md",)),
    Source("GR-XER", "gamerules.com: Xeri", ("https://gamerules.com/rules/xeri/",)),
    Source("UFM", "ultrafoodmess.com: Xeri", ("http://ultrafoodmess.com/rules/xeri-game-rules-how-to-play-xeri",)),
    Source("PGC", "Practical Gaming Center: Xeri", ("https://www.practicalgamingcenter.com/how-to-play/xeri.html",)),
    Source("KEO", "4-player Xeri (keonh4caikiwiau.blogspot.com)", (
        "https://keonh4caikiwiau.blogspot.com/2021/12/4-player-xeri.html",)),
    Source("WP-DE-XER", "Wikipedia (de): Xeri (de.wiki.li)", ("https://de.wiki.li/Xeri",)),
    Source("DOL", "diloti.online", (
        "https://diloti.online/rules.html", "https://diloti.online/xeri.html", "https://diloti.online/how-to-play.html")),
    Source("DCM", "diloti.com: How to play", ("http://www.diloti.com/howto.html",)),
    Source("DNX", "Denexa: Diloti", ("https://www.denexa.com/blog/diloti/",)),
    Source("CRP-DIL", "cardrulesplus.com: Diloti", ("https://cardrulesplus.com/games/diloti/",)),
    Source("EGO", "e-gortynia.gr: Διλωτή", (
        "https://www.e-gortynia.gr/paramones-ton-eklogon-me-tin-paradosiaki-diloti-sta-kafeneia/",)),
    Source("KKO", "kkourt/diloti.online", ("https://github.com/kkourt/diloti.online",)),
]

#: every source by its key
SOURCES: dict[str, Source] = {s.key: s for s in _TABLE}


def cited(keys: Sequence[str]) -> str:
    """An option's or preset's ``sources`` as text: the keys joined by commas, or words saying
    that no published source gives the rule (the engine's own, e.g. a safeguard)."""
    return ", ".join(keys) if keys else _("none: a rule of kafenio's own")
