#include "wargame/conformance.h"

#include <cstdlib>
#include <cstring>
#include <map>

#include "wargame/action_text.h"
#include "wargame/ai.h"
#include "wargame/players.h"
#include "wargame/registry.h"
#include "wargame/session.h"

namespace wg {

namespace {

void Fail(ConformanceReport* r, int game, long action, const std::string& what) {
  r->errors.Add(Error{"", 0, 0, "game " + std::to_string(game) + " action " + std::to_string(action), what,
                      "conformance"});
}

}  // namespace

namespace {
struct DieRollCount : EventSink {
  void OnEvent(const Event& e) override { rolls += e.type == EventType::kDieRoll ? 1 : 0; }
  int rolls = 0;
};
}  // namespace

Status CheckStoppingAtEveryDie(const Session& session, const Action& a, RngState* rng, std::vector<int>* dice_out,
                               const std::function<void(const State&)>& at_die) {
  const Game& g = session.game();
  const StepTable& t = g.rules->steps();
  State st = session.state();
  auto fail = [](const std::string& what) { return Status::Refused("chance", what); };
  auto normal = session.Clone();
  DieRollCount watch;
  Context ctx(g, nullptr, &watch, &normal->scratch());
  ctx.StopAtChance(true);
  const Status applied = g.rules->Apply(st, a, ctx);
  if (!applied.ok()) return fail("refused when stopping at chance: " + applied.ToString());
  if (watch.rolls != 0) return fail("a die was rolled inside the action, not at a chance step");
  std::vector<int> dice;
  int k = 0;
  for (; k < 1000 && !st.game_over; ++k) {
    const ChanceDef* c = PendingChance(t, st);
    if (c == nullptr) break;
    ErrorList inv;
    CheckStepStack(t, st, &inv);
    if (!inv.ok()) return fail("at a chance step: " + inv.ToString());
    if (at_die) at_die(st);
    int value = 0;
    for (int i = 0; i < std::max(1, c->count); ++i) {
      dice.push_back(RollDie(*rng, c->sides));
      value += dice.back();
    }
    const std::string name = t.Def(TopKind(st)).name;
    if (!ResolveChance(t, st, ctx, value).ok()) return fail("the chance step " + name + " refused a die in range");
  }
  if (k == 1000) return fail("the action's chance steps do not end");
  normal->SupplyDice(dice);
  if (!normal->Apply(a).ok()) return fail("refused with the dice given at its chance steps");
  ++st.action_count;  // as Session::Apply counts it
  if (!st.Equals(normal->state())) return fail("stopping at its dice reached another State than rolling them at once");
  if (dice_out) *dice_out = std::move(dice);
  return Status::Ok();
}

ConformanceReport RunConformance(const std::string& spec, const ConformanceOptions& opt) {
  ConformanceReport report;
  auto game = LoadGame(spec);
  if (!game.ok()) {
    report.errors.Append(game.errors());
    return report;
  }
  for (int g = 0; g < opt.games && report.errors.size() < 20; ++g) {
    const uint64_t seed = opt.seed + static_cast<uint64_t>(g);
    Session s(*game, seed);
    RandomPlayer player(seed * 7919 + 1);
    long n = 0;
    const long save_at = opt.save_load && g == 0 ? 40 : -1;
    while (!s.over() && n < opt.max_actions) {
      std::vector<Action> legal = s.LegalActions();
      if (legal.empty()) {
        Fail(&report, g, n, "no legal action but the game is not over (" + s.DescribeDecision() + ")");
        break;
      }
      // A refused action leaves the state byte for byte unchanged.
      if (n % 50 == 7) {
        State before;
        std::memcpy(static_cast<void*>(&before), &s.state(), sizeof(State));
        Action bad = Action::Of(ActionType::kAdvance);
        bad.AddUnit(0).AddUnit(0).AddUnit(0);
        bad.AddHex(0);
        const Status st = s.Apply(bad);
        if (st.ok()) {
          s.Undo();
        } else if (!before.Equals(s.state())) {
          Fail(&report, g, n, "a refused action changed the state");
        }
      }
      const Action a = player.Choose(s.game(), s.state(), legal);
      const Status st = s.Apply(a);
      if (!st.ok()) {
        Fail(&report, g, n, "a listed legal action was refused: " + st.ToString());
        break;
      }
      ++n;
      ErrorList inv;
      s.game().rules->CheckInvariants(s.state(), &inv);
      for (const auto& e : inv.errors()) Fail(&report, g, n, e.message);
      // A clone equals the original.
      State clone;
      std::memcpy(static_cast<void*>(&clone), &s.state(), sizeof(State));
      if (!clone.Equals(s.state()) || HashState(clone) != HashState(s.state())) {
        Fail(&report, g, n, "clone differs from the original");
      }
      if (n == save_at) {
        const std::string text = s.Save();
        auto loaded = Session::Load(text, "conformance-save");
        if (!loaded.ok()) {
          Fail(&report, g, n, "save/load failed: " + loaded.errors().ToString());
        } else if (!(*loaded)->state().Equals(s.state())) {
          Fail(&report, g, n, "loaded state differs from the saved one");
        } else {
          // Continue both for a while with the same choices: they stay equal.
          RandomPlayer p1(99), p2(99);
          Session& other = **loaded;
          for (int k = 0; k < 60 && !s.over(); ++k) {
            auto l1 = s.LegalActions();
            auto l2 = other.LegalActions();
            if (l1.size() != l2.size()) {
              Fail(&report, g, n, "loaded game lists different legal actions");
              break;
            }
            if (l1.empty()) break;
            const Action a1 = p1.Choose(s.game(), s.state(), l1);
            const Action a2 = p2.Choose(other.game(), other.state(), l2);
            if (!s.Apply(a1).ok() || !other.Apply(a2).ok()) {
              Fail(&report, g, n, "continuing after load refused an action");
              break;
            }
            ++n;
            if (!s.state().Equals(other.state())) {
              Fail(&report, g, n, "saved-and-loaded game diverged from the original");
              break;
            }
          }
        }
      }
    }
    report.actions += n;
    if (!s.over()) {
      Fail(&report, g, n, "the game did not end within " + std::to_string(opt.max_actions) + " actions");
      continue;
    }
    ++report.games_finished;
    if (s.state().winner >= 0) {
      ++report.wins[s.state().winner];
    } else {
      ++report.draws;
    }
  }
  return report;
}

int ScaledGameCount(int n) {
  const char* env = std::getenv("WG_GAMES_PERCENT");
  long percent = 100;
  if (env != nullptr && *env != '\0') {
    char* end = nullptr;
    const long v = std::strtol(env, &end, 10);
    if (end != nullptr && *end == '\0' && v >= 0) percent = v;
  }
  const long scaled = static_cast<long>(n) * percent / 100;
  return static_cast<int>(std::max(1L, std::min(scaled, 1L << 30)));
}

}  // namespace wg
