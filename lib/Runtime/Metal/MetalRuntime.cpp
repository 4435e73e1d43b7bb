//===- MetalRuntime.cpp - run Metal programs over metal-cpp ---------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Follows the host description of rlx-compile --target=metal (the JSON of
// lib/Target/Metal/MetalHostDescription.cpp) with Apple's metal-cpp. Built
// on macOS alone (lib/Runtime/CMakeLists.txt); never compiled or run by
// RLX's CI, which has no Apple machine.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/Metal/MetalRuntime.h"

#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

//===----------------------------------------------------------------------===//
// The JSON the description needs: objects, arrays, strings, numbers.
//===----------------------------------------------------------------------===//

struct Json {
  enum Kind { Null, Number, String, Array, Object } kind = Null;
  double number = 0;
  std::string string;
  std::vector<Json> array;
  std::map<std::string, Json> object;

  const Json &operator[](const std::string &key) const {
    static const Json none;
    auto it = object.find(key);
    return it == object.end() ? none : it->second;
  }
  long long integer() const { return (long long)number; }
};

class JsonParser {
public:
  explicit JsonParser(const std::string &text) : s(text) {}

  bool parse(Json &value) {
    if (!parseValue(value))
      return false;
    skipSpace();
    return i == s.size();
  }

private:
  void skipSpace() {
    while (i < s.size() && std::strchr(" \t\r\n", s[i]))
      ++i;
  }
  bool parseString(std::string &out) {
    if (s[i] != '"')
      return false;
    for (++i; i < s.size() && s[i] != '"'; ++i) {
      if (s[i] == '\\' && ++i == s.size())
        return false;
      out += s[i];
    }
    return i++ < s.size();
  }
  bool parseValue(Json &v) {
    skipSpace();
    if (i == s.size())
      return false;
    char c = s[i];
    if (c == '"') {
      v.kind = Json::String;
      return parseString(v.string);
    }
    if (c == '[' || c == '{') {
      bool isArray = c == '[';
      v.kind = isArray ? Json::Array : Json::Object;
      ++i;
      skipSpace();
      if (i < s.size() && s[i] == (isArray ? ']' : '}')) {
        ++i;
        return true;
      }
      while (true) {
        std::string key;
        if (!isArray) {
          skipSpace();
          if (!parseString(key))
            return false;
          skipSpace();
          if (i == s.size() || s[i++] != ':')
            return false;
        }
        Json element;
        if (!parseValue(element))
          return false;
        if (isArray)
          v.array.push_back(std::move(element));
        else
          v.object[key] = std::move(element);
        skipSpace();
        if (i == s.size())
          return false;
        if (s[i] == ',') {
          ++i;
          continue;
        }
        return s[i++] == (isArray ? ']' : '}');
      }
    }
    if (s.compare(i, 4, "null") == 0 || s.compare(i, 4, "true") == 0) {
      i += 4;
      return true;
    }
    if (s.compare(i, 5, "false") == 0) {
      i += 5;
      return true;
    }
    char *end = nullptr;
    v.kind = Json::Number;
    v.number = std::strtod(s.c_str() + i, &end);
    if (end == s.c_str() + i)
      return false;
    i = end - s.c_str();
    return true;
  }

  const std::string &s;
  size_t i = 0;
};

bool readFile(const char *path, std::string &text) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream os;
  os << in.rdbuf();
  text = os.str();
  return true;
}

void setError(char **error, const std::string &message) {
  if (error)
    *error = strdup(message.c_str());
}

} // namespace

struct rlxMetalProgram {
  MTL::Device *device = nullptr;
  MTL::Library *library = nullptr;
  MTL::CommandQueue *queue = nullptr;
  std::map<std::string, MTL::ComputePipelineState *> pipelines;
  Json host;
};

extern "C" rlxMetalProgram *rlxMetalLoad(const char *mslPath,
                                         const char *hostPath, char **error) {
  std::string msl, hostText;
  if (!readFile(mslPath, msl) || !readFile(hostPath, hostText)) {
    setError(error, "cannot read the program's files");
    return nullptr;
  }
  auto program = std::make_unique<rlxMetalProgram>();
  if (!JsonParser(hostText).parse(program->host)) {
    setError(error, std::string(hostPath) + ": not a host description");
    return nullptr;
  }
  NS::AutoreleasePool *pool = NS::AutoreleasePool::alloc()->init();
  program->device = MTL::CreateSystemDefaultDevice();
  if (!program->device) {
    setError(error, "no Metal device");
    pool->release();
    return nullptr;
  }
  MTL::CompileOptions *options = MTL::CompileOptions::alloc()->init();
  // bfloat needs MSL 3.1; the kernels' NaN checks need IEEE math.
  options->setLanguageVersion(MTL::LanguageVersion3_1);
  options->setFastMathEnabled(false);
  NS::Error *nsError = nullptr;
  program->library = program->device->newLibrary(
      NS::String::string(msl.c_str(), NS::UTF8StringEncoding), options,
      &nsError);
  options->release();
  if (!program->library) {
    setError(error, nsError ? nsError->localizedDescription()->utf8String()
                            : "the MSL does not compile");
    pool->release();
    return nullptr;
  }
  for (const Json &fn : program->host["functions"].array)
    for (const Json &step : fn["steps"].array) {
      const std::string &kernel = step["kernel"].string;
      if (step["kind"].string != "launch" || program->pipelines.count(kernel))
        continue;
      MTL::Function *function = program->library->newFunction(
          NS::String::string(kernel.c_str(), NS::UTF8StringEncoding));
      MTL::ComputePipelineState *pipeline =
          function ? program->device->newComputePipelineState(function,
                                                              &nsError)
                   : nullptr;
      if (function)
        function->release();
      if (!pipeline) {
        setError(error, "no pipeline for kernel " + kernel);
        pool->release();
        rlxMetalFree(program.release());
        return nullptr;
      }
      program->pipelines[kernel] = pipeline;
    }
  program->queue = program->device->newCommandQueue();
  pool->release();
  return program.release();
}

extern "C" int rlxMetalRun(rlxMetalProgram *program, const char *function,
                           void *const *buffers, char **error) {
  const Json *fn = nullptr;
  for (const Json &f : program->host["functions"].array)
    if (f["name"].string == function)
      fn = &f;
  if (!fn) {
    setError(error, std::string("no function ") + function);
    return -1;
  }
  NS::AutoreleasePool *pool = NS::AutoreleasePool::alloc()->init();
  // Buffers: the arguments, then the temporaries (private to the GPU).
  std::vector<MTL::Buffer *> all;
  for (size_t i = 0; i < (*fn)["arguments"].array.size(); ++i)
    all.push_back(static_cast<MTL::Buffer *>(buffers[i]));
  std::vector<MTL::Buffer *> temporaries;
  for (const Json &t : (*fn)["temporaries"].array) {
    temporaries.push_back(program->device->newBuffer(
        NS::UInteger(t["bytes"].integer()), MTL::ResourceStorageModePrivate));
    all.push_back(temporaries.back());
  }

  MTL::CommandBuffer *commands = program->queue->commandBuffer();
  MTL::ComputeCommandEncoder *compute = nullptr;
  for (const Json &step : (*fn)["steps"].array) {
    if (step["kind"].string == "copy") {
      if (compute) {
        compute->endEncoding();
        compute = nullptr;
      }
      MTL::BlitCommandEncoder *blit = commands->blitCommandEncoder();
      blit->copyFromBuffer(all[step["from"].integer()], 0,
                           all[step["to"].integer()], 0,
                           NS::UInteger(step["bytes"].integer()));
      blit->endEncoding();
      continue;
    }
    // Dispatches of one compute encoder run in order (serial dispatch).
    if (!compute)
      compute = commands->computeCommandEncoder();
    compute->setComputePipelineState(
        program->pipelines[step["kernel"].string]);
    for (const Json &binding : step["buffers"].array) {
      NS::UInteger index = NS::UInteger(binding["index"].integer());
      if (binding["buffer"].kind == Json::Number) {
        compute->setBuffer(all[binding["buffer"].integer()], 0, index);
      } else if (binding["type"].string == "f32") {
        float v = float(binding["float"].number);
        compute->setBytes(&v, sizeof v, index);
      } else if (binding["type"].string == "i64") {
        long long v = binding["int"].integer();
        compute->setBytes(&v, sizeof v, index);
      } else {
        int v = int(binding["int"].integer());
        compute->setBytes(&v, sizeof v, index);
      }
    }
    const Json &grid = step["grid"], &group = step["threadgroup"];
    compute->dispatchThreadgroups(
        MTL::Size(grid.array[0].integer(), grid.array[1].integer(),
                  grid.array[2].integer()),
        MTL::Size(group.array[0].integer(), group.array[1].integer(),
                  group.array[2].integer()));
  }
  if (compute)
    compute->endEncoding();
  commands->commit();
  commands->waitUntilCompleted();
  int rc = 0;
  if (commands->status() != MTL::CommandBufferStatusCompleted) {
    setError(error, commands->error()
                        ? commands->error()->localizedDescription()->utf8String()
                        : "the command buffer failed");
    rc = -1;
  }
  for (MTL::Buffer *t : temporaries)
    t->release();
  pool->release();
  return rc;
}

extern "C" void rlxMetalFree(rlxMetalProgram *program) {
  if (!program)
    return;
  for (auto &[name, pipeline] : program->pipelines)
    pipeline->release();
  if (program->queue)
    program->queue->release();
  if (program->library)
    program->library->release();
  if (program->device)
    program->device->release();
  delete program;
}
